//! The keys of a game's own table in a league or challenge file (`[name]`), read one by one
//! into the game's settings: written once, so that every game refuses an unknown key, a value
//! of the wrong type and a number out of range in the same words, naming the key. The game says
//! only which keys it has, what each value must be, and where it goes.

use anyhow::{anyhow, bail};

/// One key of a game's table, and its value.
pub struct Key<'a> {
    /// The table's name (the game's).
    table: &'a str,
    pub name: &'a str,
    pub value: &'a toml::Value,
}

impl Key<'_> {
    /// The refusal of a value that is not `what` (`a number from 0`).
    pub fn expected(&self, what: &str) -> anyhow::Error {
        anyhow!(
            "key `{}.{}`: expected {what}, found {}",
            self.table,
            self.name,
            self.value
        )
    }

    /// The value as a whole number from 0, described as `what` when it is none.
    pub fn number(&self, what: &str) -> anyhow::Result<u64> {
        match self.value.as_integer() {
            Some(n) if n >= 0 => Ok(n as u64),
            _ => Err(self.expected(what)),
        }
    }

    /// The value as a whole number from 0 that fits 32 bits.
    pub fn small(&self, what: &str) -> anyhow::Result<u32> {
        u32::try_from(self.number(what)?).map_err(|_| {
            anyhow!(
                "key `{}.{}`: {} is too large",
                self.table,
                self.name,
                self.value
            )
        })
    }

    /// The value as text, described as `what` when it is none.
    pub fn text(&self, what: &str) -> anyhow::Result<&str> {
        self.value.as_str().ok_or_else(|| self.expected(what))
    }
}

/// The settings of the table `table` (`None`: no such table, no keys): `settings` (the game's
/// defaults) with each key handed to `set`, after refusing one that is not among `names` (the
/// keys the table has, in the order the refusal lists them).
pub fn each_key<S>(
    table: &str,
    keys: Option<&toml::Table>,
    names: &[&str],
    mut settings: S,
    mut set: impl FnMut(&mut S, &Key<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<S> {
    for (name, value) in keys.into_iter().flatten() {
        if !names.contains(&name.as_str()) {
            bail!(
                "unknown key `{table}.{name}` (the [{table}] table has {})",
                listed(names)
            );
        }
        set(&mut settings, &Key { table, name, value })?;
    }
    Ok(settings)
}

/// The settings `from_keys` reads from `text`, a game's table as a league file's author writes
/// it (without its `[name]` line): how the games' tests try their keys, on the words a person
/// types rather than on a table built by hand.
pub fn from_text<S>(
    text: &str,
    from_keys: impl FnOnce(Option<&toml::Table>) -> anyhow::Result<S>,
) -> anyhow::Result<S> {
    let table: toml::Table = toml::from_str(text)?;
    from_keys(Some(&table))
}

/// `names` quoted, as a list in words: `` `a`, `b` and `c` ``.
fn listed(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        let set = |_: &mut (), key: &Key<'_>| match key.name {
            "size" => key.small("a size").map(drop),
            _ => key.text("a name").map(drop),
        };
        from_text(text, |keys| {
            each_key("t", keys, &["size", "name", "kind"], (), set)
        })
        .unwrap_err()
        .to_string()
    }

    #[test]
    fn refusals_name_the_key() {
        assert_eq!(
            refusal("colour = 1"),
            "unknown key `t.colour` (the [t] table has `size`, `name` and `kind`)"
        );
        assert_eq!(
            refusal("size = -1"),
            "key `t.size`: expected a size, found -1"
        );
        assert_eq!(
            refusal("size = 4294967296"),
            "key `t.size`: 4294967296 is too large"
        );
        assert_eq!(
            refusal("name = 3"),
            "key `t.name`: expected a name, found 3"
        );
        assert_eq!(listed(&["a"]), "`a`");
        assert!(each_key("t", None, &[], (), |_, _| unreachable!()).is_ok());
    }
}
