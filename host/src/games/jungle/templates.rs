//! `arena new NAME --game jungle --lang rust|wat`: the Jungle templates. The Rust agent builds
//! on the SDK (`arena new` writes a copy of it into the project's vendor/ folder) and the rules
//! crate; the WAT agent needs nothing.

/// One file of a template: its path in the project and its text (with `{{...}}` placeholders).
pub type TemplateFile = (&'static str, &'static str);

/// The languages with a Jungle template.
pub const LANGUAGES: [&str; 2] = ["rust", "wat"];

/// The Rust template (the same Cargo.toml as the other games' Rust agents).
pub const RUST: &[TemplateFile] = &[
    (
        "Cargo.toml",
        include_str!("../../cli/new/templates/rust/Cargo.toml"),
    ),
    ("src/lib.rs", include_str!("templates/rust/src/lib.rs")),
    (".gitignore", "/target/\n"),
];

/// The WAT template: one file, checked as it is.
pub const WAT: &[TemplateFile] = &[("{{name}}.wat", include_str!("templates/wat/jungle.wat"))];
