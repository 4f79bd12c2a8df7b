//! What `arena new --game codewar` writes: a code war agent in Rust (with the SDK, vendored as
//! for every Rust template) or in WAT. Each file is a path and a text with `{{name}}`,
//! `{{crate}}` and `{{sdk}}` placeholders, as the other templates of `arena new`.

/// One file: its path in the new project and its text.
pub type TemplateFile = (&'static str, &'static str);

/// A Rust agent: a `no_std` crate built with the SDK's code war support.
pub const RUST: &[TemplateFile] = &[
    ("Cargo.toml", include_str!("templates/rust/Cargo.toml")),
    ("src/lib.rs", include_str!("templates/rust/src/lib.rs")),
    (".gitignore", "/target/\n"),
];

/// A WAT agent: nothing to build.
pub const WAT: &[TemplateFile] = &[("{{name}}.wat", include_str!("templates/wat/agent.wat"))];

/// The templates by language (the names `arena new --lang` takes).
pub const TEMPLATES: &[(&str, &[TemplateFile])] = &[("rust", RUST), ("wat", WAT)];
