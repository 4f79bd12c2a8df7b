//! Times as people read them, in UTC: `YYYY-MM-DD hh:mm:ss` (the league folder's lock, the
//! server's pages), by the `time` crate's calendar and formatting.

use time::format_description::BorrowedFormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

const FORMAT: &[BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");

/// `YYYY-MM-DD hh:mm:ss` for `secs` seconds since 1970 (UTC); `None` for a time the calendar
/// does not hold (past the years 9999 either way).
pub fn text(secs: i64) -> Option<String> {
    OffsetDateTime::from_unix_timestamp(secs)
        .ok()?
        .format(FORMAT)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_civil_dates_and_the_calendar_has_an_end() {
        assert_eq!(text(0).unwrap(), "1970-01-01 00:00:00");
        assert_eq!(text(-1).unwrap(), "1969-12-31 23:59:59");
        assert_eq!(text(951_782_400).unwrap(), "2000-02-29 00:00:00");
        assert_eq!(text(1_709_251_199).unwrap(), "2024-02-29 23:59:59");
        assert_eq!(text(4_102_444_800).unwrap(), "2100-01-01 00:00:00");
        assert_eq!(text(i64::MAX), None);
    }
}
