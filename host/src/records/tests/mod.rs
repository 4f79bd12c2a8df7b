//! Tests of what every record shares (each game tests its own records).

mod digest;
