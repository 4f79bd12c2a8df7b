//! Shape limits checked before compiling: compilation cannot be interrupted, and its time grows
//! faster than linearly with some shapes (one function with thousands of live locals, tens of
//! thousands of functions), so a module whose shape could be a compile-time bomb is refused
//! before any compiler sees it. Reading the shape is one linear pass over the module's sections.

use anyhow::{anyhow, bail};
use serde::{Deserialize, Serialize};
use wasmparser::{Parser, Payload};

/// How big the parts of an agent module may be. The defaults leave room for real agents (a Rust
/// agent with `std`, regex and serde has a few thousand functions of at most a few hundred
/// locals; the interpreters inside Python and JavaScript components are the biggest: CPython's
/// module has 10,625 functions and 5.9 MB of code, StarlingMonkey's 12,652 functions and
/// 9.2 MB) and refuse the known compile-time bombs; see docs/SECURITY.md for the measurements.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShapeLimits {
    /// Functions defined in the module (imports not counted).
    pub functions: u32,
    /// Locals declared by one function (parameters not counted).
    pub locals_per_function: u32,
    /// Bytes of one function body.
    pub function_body_bytes: u32,
    /// Bytes of all function bodies together.
    pub code_bytes: u64,
    /// Entries of the type section.
    pub types: u32,
    /// Imports.
    pub imports: u32,
    /// Exports.
    pub exports: u32,
    /// Globals defined in the module.
    pub globals: u32,
    /// Data segments.
    pub data_segments: u32,
    /// Element segments.
    pub element_segments: u32,
}

impl Default for ShapeLimits {
    fn default() -> ShapeLimits {
        ShapeLimits {
            functions: 20_000,
            locals_per_function: 2_000,
            function_body_bytes: 1 << 20,
            code_bytes: 16 << 20,
            types: 10_000,
            imports: 1_000,
            exports: 10_000,
            globals: 10_000,
            data_segments: 10_000,
            element_segments: 10_000,
        }
    }
}

impl ShapeLimits {
    /// No limit at all (to measure what the limits protect against).
    pub fn unlimited() -> ShapeLimits {
        ShapeLimits {
            functions: u32::MAX,
            locals_per_function: u32::MAX,
            function_body_bytes: u32::MAX,
            code_bytes: u64::MAX,
            types: u32::MAX,
            imports: u32::MAX,
            exports: u32::MAX,
            globals: u32::MAX,
            data_segments: u32::MAX,
            element_segments: u32::MAX,
        }
    }
}

/// What [`check_shape`] measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    pub functions: u32,
    pub max_locals: u32,
    pub max_body_bytes: u32,
    pub code_bytes: u64,
}

fn over(what: &str, value: u64, limit: u64) -> anyhow::Result<()> {
    if value > limit {
        bail!(
            "the module has {value} {what}, more than the arena's limit of {limit} \
             (a limit on the module's shape, which keeps compilation time bounded)"
        );
    }
    Ok(())
}

/// Reads the shape of a WebAssembly binary and refuses it if it exceeds `limits`. In a
/// component, each core module is held to the limits on its own, except its bytes of code, which
/// add up over the modules. Malformed sections are reported as invalid modules.
pub fn check_shape(wasm: &[u8], limits: &ShapeLimits) -> anyhow::Result<Shape> {
    let invalid = |e: wasmparser::BinaryReaderError| anyhow!("invalid WebAssembly module: {e}");
    let mut shape = Shape::default();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(invalid)? {
            Payload::TypeSection(r) => over("types", r.count().into(), limits.types.into())?,
            Payload::ImportSection(r) => over("imports", r.count().into(), limits.imports.into())?,
            Payload::FunctionSection(r) => {
                over("functions", r.count().into(), limits.functions.into())?
            }
            Payload::GlobalSection(r) => over("globals", r.count().into(), limits.globals.into())?,
            Payload::ExportSection(r) => over("exports", r.count().into(), limits.exports.into())?,
            Payload::DataSection(r) => over(
                "data segments",
                r.count().into(),
                limits.data_segments.into(),
            )?,
            Payload::ElementSection(r) => over(
                "element segments",
                r.count().into(),
                limits.element_segments.into(),
            )?,
            Payload::CodeSectionStart { count, size, .. } => {
                over("function bodies", count.into(), limits.functions.into())?;
                over("bytes of code", size.into(), limits.code_bytes)?;
                // A component's core modules are checked one by one; their code adds up.
                shape.code_bytes += u64::from(size);
                over("bytes of code", shape.code_bytes, limits.code_bytes)?;
            }
            Payload::CodeSectionEntry(body) => {
                shape.functions += 1;
                let bytes = body.range().len() as u32;
                shape.max_body_bytes = shape.max_body_bytes.max(bytes);
                if bytes > limits.function_body_bytes {
                    bail!(
                        "function {} is {bytes} bytes long, more than the arena's limit of {} \
                         bytes per function (a limit on the module's shape, which keeps \
                         compilation time bounded)",
                        shape.functions - 1,
                        limits.function_body_bytes
                    );
                }
                let mut locals: u64 = 0;
                for decl in body.get_locals_reader().map_err(invalid)? {
                    let (count, _ty) = decl.map_err(invalid)?;
                    locals += u64::from(count);
                    if locals > limits.locals_per_function.into() {
                        bail!(
                            "function {} declares more than {} locals, the arena's limit per \
                             function (a limit on the module's shape, which keeps compilation \
                             time bounded)",
                            shape.functions - 1,
                            limits.locals_per_function
                        );
                    }
                }
                shape.max_locals = shape.max_locals.max(locals as u32);
            }
            _ => {}
        }
    }
    Ok(shape)
}
