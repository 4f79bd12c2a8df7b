//! A core module's imports and exports checked against ABI v1: the host functions it may import,
//! the exports every agent needs, and the games whose decision exports it has. Refusals name each
//! wrong entry with its type and the type expected.

use anyhow::bail;
use arena_abi::names;
use wasmtime::{ExternType, FuncType, Module, ValType};

use super::interface::{AgentInterface, Games};
use super::module::Entry;
use super::wasi::WASI_MODULE;

fn func<'a>(params: &'a [ValType], results: &'a [ValType]) -> impl Fn(&FuncType) -> bool + 'a {
    move |ty: &FuncType| {
        ty.params().len() == params.len()
            && ty.results().len() == results.len()
            && ty.params().zip(params).all(|(a, b)| a.matches(b))
            && ty.results().zip(results).all(|(a, b)| a.matches(b))
    }
}

pub(crate) fn describe(ty: &ExternType) -> String {
    match ty {
        ExternType::Func(f) => {
            let list = |it: &mut dyn Iterator<Item = ValType>| {
                it.map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
            };
            let params = list(&mut f.params());
            let results: Vec<String> = f.results().map(|t| t.to_string()).collect();
            match results.len() {
                0 => format!("func({params})"),
                1 => format!("func({params}) -> {}", results[0]),
                _ => format!("func({params}) -> ({})", results.join(", ")),
            }
        }
        ExternType::Memory(m) => format!("memory({} pages min)", m.minimum()),
        ExternType::Table(t) => format!("table({} elements min)", t.minimum()),
        ExternType::Global(_) => "global".into(),
        ExternType::Tag(_) => "tag".into(),
    }
}

pub(crate) fn check_imports(module: &Module) -> anyhow::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    let mut refused = Vec::new();
    let i32_ = ValType::I32;
    for import in module.imports() {
        let ty = import.ty();
        let full = format!("{}::{}", import.module(), import.name());
        let ok = match (import.module(), &ty) {
            (names::HOST_MODULE, ExternType::Func(f)) if import.name() == names::LOG => {
                if !func(&[i32_.clone(), i32_.clone()], &[])(f) {
                    refused.push(format!(
                        "`{full}` has type {}, expected func(i32, i32)",
                        describe(&ty)
                    ));
                    continue;
                }
                true
            }
            (names::HOST_MODULE, ExternType::Func(f)) if import.name() == names::FUEL_LEFT => {
                if !func(&[], &[ValType::I64])(f) {
                    refused.push(format!(
                        "`{full}` has type {}, expected func() -> i64",
                        describe(&ty)
                    ));
                    continue;
                }
                true
            }
            (WASI_MODULE, ExternType::Func(_)) => true,
            _ => false,
        };
        if !ok {
            refused.push(format!("`{full}` ({})", describe(&ty)));
        }
        entries.push(Entry {
            name: full,
            kind: describe(&ty),
        });
    }
    if !refused.is_empty() {
        bail!(
            "the module imports {} which the arena does not provide \
             (allowed: arena::log, arena::fuel_left and wasi_snapshot_preview1 functions)",
            refused.join(", ")
        );
    }
    Ok(entries)
}

/// Checks the exports every agent needs and the decision exports of each game; returns the
/// module's exports and the games whose decision exports are all present (at least one).
pub(crate) fn check_exports(
    module: &Module,
    all: Games,
) -> anyhow::Result<(Vec<Entry>, Vec<&'static AgentInterface>)> {
    let i32_ = ValType::I32;
    let getter = [i32_.clone()];
    let unary = [i32_.clone()];
    let required: [(&str, &[ValType], &[ValType]); 3] = [
        (names::ABI_VERSION, &[], &getter),
        (names::BUFFER, &[], &getter),
        (names::BUFFER_SIZE, &[], &getter),
    ];
    let mut problems = Vec::new();
    match module.get_export(names::MEMORY) {
        Some(ExternType::Memory(_)) => {}
        Some(other) => problems.push(format!(
            "export `{}` must be a memory, not {}",
            names::MEMORY,
            describe(&other)
        )),
        None => problems.push(format!("missing export `{}` (a memory)", names::MEMORY)),
    }
    let expected = |p: &[ValType], r: &[ValType]| {
        let ty = FuncType::new(module.engine(), p.iter().cloned(), r.iter().cloned());
        describe(&ExternType::Func(ty))
    };
    let mut check =
        |name: &str, p: &[ValType], r: &[ValType], optional: bool| match module.get_export(name) {
            Some(ExternType::Func(f)) if func(p, r)(&f) => {}
            Some(other) => problems.push(format!(
                "export `{name}` has type {}, expected {}",
                describe(&other),
                expected(p, r)
            )),
            None if optional => {}
            None => problems.push(format!("missing export `{name}` ({})", expected(p, r))),
        };
    for (name, p, r) in required {
        check(name, p, r, false);
    }
    check(names::INIT, &unary, &unary, true);
    check("_initialize", &[], &[], true);
    // A decision export of any game must have the right type even if the module does not play
    // that game; a game is played when all of its decision exports are there.
    let mut games = Vec::new();
    let mut unplayed = Vec::new();
    for &game in all.iter().filter(|g| g.snippet.is_none()) {
        let mut missing = Vec::new();
        for name in game.decisions {
            check(name, &unary, &unary, true);
            if module.get_export(name).is_none() {
                missing.push(format!(
                    "missing export `{name}` ({})",
                    expected(&unary, &unary)
                ));
            }
        }
        if missing.is_empty() {
            games.push(game);
        } else {
            unplayed.push(format!("for {}: {}", game.title, missing.join(", ")));
        }
    }
    if games.is_empty() {
        problems.push(format!("it plays no game ({})", unplayed.join("; ")));
    }
    if !problems.is_empty() {
        bail!(
            "not an arena agent (ABI v{}): {}",
            arena_abi::ABI_VERSION,
            problems.join("; ")
        );
    }
    let exports = module
        .exports()
        .map(|e| Entry {
            name: e.name().to_owned(),
            kind: describe(&e.ty()),
        })
        .collect();
    Ok((exports, games))
}
