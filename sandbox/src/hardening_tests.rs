//! Engine hardening and shape limits.

use super::game_for_tests::GAMES;
use super::*;

fn wat_agent(extra: &str, memory: &str) -> String {
    format!(
        r#"(module
  {memory}
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param i32) (result i32) (i32.const 0))
  (func (export "farm_accept") (param i32) (result i32) (i32.const 0))
  {extra})"#
    )
}

#[test]
fn threads_and_shared_memories_are_refused() {
    let sb = Sandbox::with_compiler(GAMES, Limits::default(), Compiler::in_process()).unwrap();
    let shared = wat_agent("", r#"(memory (export "memory") 1 1 shared)"#);
    let err = format!(
        "{:#}",
        sb.load_bytes("shared", shared.as_bytes()).unwrap_err()
    );
    assert!(err.contains("invalid WebAssembly module"), "{err}");
    let atomics = wat_agent(
        "(func (result i32) (i32.atomic.load (i32.const 0)))",
        r#"(memory (export "memory") 1)"#,
    );
    let err = format!(
        "{:#}",
        sb.load_bytes("atomics", atomics.as_bytes()).unwrap_err()
    );
    assert!(err.contains("invalid WebAssembly module"), "{err}");
}

#[test]
fn shape_limits_count_functions_locals_and_body_bytes() {
    let wasm = wat::parse_str(wat_agent(
        "(func (local i32 i64 f32) (local i32)) (func)",
        r#"(memory (export "memory") 1)"#,
    ))
    .unwrap();
    let shape = check_shape(&wasm, &ShapeLimits::default()).unwrap();
    assert_eq!((shape.functions, shape.max_locals), (7, 4));
    let tight = |f: fn(&mut ShapeLimits)| {
        let mut l = ShapeLimits::default();
        f(&mut l);
        format!("{:#}", check_shape(&wasm, &l).unwrap_err())
    };
    assert!(tight(|l| l.functions = 6).contains("7 functions"));
    assert!(tight(|l| l.locals_per_function = 3).contains("more than 3 locals"));
    assert!(tight(|l| l.function_body_bytes = 4).contains("bytes per function"));
    assert!(tight(|l| l.code_bytes = 10).contains("bytes of code"));
    assert!(tight(|l| l.exports = 5).contains("exports"));
    // A component: each nested module is held to the limits, and their code adds up.
    let component = wat::parse_str(format!(
        "(component (core module {m}) (core module {m}))",
        m = &wat_agent(
            "(func (local i32 i64 f32) (local i32)) (func)",
            r#"(memory (export "memory") 1)"#
        )["(module".len()..]
            .strip_suffix(')')
            .unwrap()
    ))
    .unwrap();
    let both = check_shape(&component, &ShapeLimits::default()).unwrap();
    assert_eq!(both.functions, 14);
    assert_eq!(both.code_bytes, 2 * shape.code_bytes);
    let l = ShapeLimits {
        code_bytes: shape.code_bytes * 3 / 2,
        ..ShapeLimits::default()
    };
    assert!(format!("{:#}", check_shape(&component, &l).unwrap_err()).contains("bytes of code"));
    let l = ShapeLimits {
        functions: 6,
        ..ShapeLimits::default()
    };
    assert!(format!("{:#}", check_shape(&component, &l).unwrap_err()).contains("7 functions"));
}
