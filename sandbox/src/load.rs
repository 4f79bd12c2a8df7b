//! Loading an agent into the [`Sandbox`]: reading a file (size-capped), text to binary, then a
//! core module checked against ABI v1 and compiled once, a snippet agent kept as its bytes, or a
//! component checked against the games' worlds. Every refusal says what is wrong with the agent.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, bail, Context};
use arena_abi::names;
use wasmtime::Module;

use super::abi_check::{check_exports, check_imports};
use super::compile::Origin;
use super::component;
use super::config::{self, Limits};
use super::faults::{classify, one_line, FuelScope, LimitExceeded};
use super::interface::{AgentInterface, Games};
use super::module::{AgentModule, Code, Entry, ModuleInner};
use super::probe;
use super::sandbox::Sandbox;
use super::snippet_entries::Spaces;
use super::wasi::WASI_MODULE;

impl Sandbox {
    /// Reads, validates and compiles an agent from a `.wasm` or `.wat` file.
    pub fn load(&self, path: &Path) -> anyhow::Result<AgentModule> {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "agent".into());
        let bytes = self
            .read_capped(path)
            .with_context(|| format!("{}", path.display()))?;
        self.load_bytes_named(&name, Some(path), &bytes)
            .with_context(|| format!("{}", path.display()))
    }

    /// Validates and compiles an agent given as WebAssembly binary or text bytes.
    pub fn load_bytes(&self, name: &str, bytes: &[u8]) -> anyhow::Result<AgentModule> {
        anyhow::ensure!(
            bytes.len() as u64 <= self.inner.limits.module_bytes,
            "the module is {} bytes, larger than the limit of {} bytes",
            bytes.len(),
            self.inner.limits.module_bytes
        );
        self.load_bytes_named(name, None, bytes)
            .with_context(|| format!("agent {name:?}"))
    }

    fn read_capped(&self, path: &Path) -> anyhow::Result<Vec<u8>> {
        let cap = self.inner.limits.module_bytes;
        let file = File::open(path).context("cannot open the agent file")?;
        let size = file
            .metadata()
            .context("cannot read the file's size")?
            .len();
        if size > cap {
            bail!("the file is {size} bytes, larger than the module size limit of {cap} bytes");
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.take(cap + 1)
            .read_to_end(&mut bytes)
            .context("cannot read the agent file")?;
        if bytes.len() as u64 > cap {
            bail!("the file is larger than the module size limit of {cap} bytes");
        }
        Ok(bytes)
    }

    fn load_bytes_named(
        &self,
        name: &str,
        path: Option<&Path>,
        bytes: &[u8],
    ) -> anyhow::Result<AgentModule> {
        let is_wat_name = path.is_some_and(|p| p.extension().is_some_and(|e| e == "wat"));
        let wasm = to_binary(bytes, is_wat_name)?;
        if component::is_component(&wasm) {
            return self.load_component(name, path, &wasm);
        }
        if let Some(games) = snippet_games(&wasm, self.inner.games) {
            return self.load_snippet(name, path, wasm, games);
        }
        let engine = &self.inner.engine;
        Module::validate(engine, &wasm)
            .map_err(|e| anyhow!("invalid WebAssembly module: {}", one_line(&e)))?;
        check_table_sizes(&wasm, &self.inner.limits, "module")?;
        let (module, origin) =
            self.inner
                .compiler
                .compile_or_reuse(engine, &self.inner.limits, &wasm)?;

        let imports = check_imports(&module)?;
        let uses_wasi = module.imports().any(|i| i.module() == WASI_MODULE);
        let (exports, games) = check_exports(&module, self.inner.games)?;
        let linker = if uses_wasi {
            &self.inner.with_wasi
        } else {
            &self.inner.plain
        };
        let pre = linker
            .instantiate_pre(&module)
            .map_err(|e| anyhow!("cannot link the module's imports: {}", one_line(&e)))?;
        let has_init = module.get_export(names::INIT).is_some();
        let has_initialize = module.get_export("_initialize").is_some();

        let mut inner = ModuleInner {
            sandbox: self.clone(),
            code: Code::Core(pre),
            name: name.to_owned(),
            path: path.map(Path::to_path_buf),
            sha256: crate::sha256_hex(&wasm),
            size: wasm.len() as u64,
            exports,
            imports,
            abi_version: 0,
            uses_wasi,
            has_init,
            has_initialize,
            games,
            origin,
        };
        let version = probe::probe_abi_version(&inner)?;
        if version != arena_abi::ABI_VERSION {
            bail!(
                "{}() returned {version}: this arena speaks ABI version {}",
                names::ABI_VERSION,
                arena_abi::ABI_VERSION
            );
        }
        inner.abi_version = version;
        let agent = AgentModule {
            inner: Arc::new(inner),
        };
        Ok(agent)
    }

    /// Keeps a snippet agent (a module exporting the entry of a snippet game) as its bytes,
    /// validated and with its imports checked against the game's import module: the game
    /// compiles and runs it with its own limits, so nothing is compiled here.
    fn load_snippet(
        &self,
        name: &str,
        path: Option<&Path>,
        wasm: Vec<u8>,
        games: Vec<&'static AgentInterface>,
    ) -> anyhow::Result<AgentModule> {
        Module::validate(&self.inner.engine, &wasm)
            .map_err(|e| anyhow!("invalid WebAssembly module: {}", one_line(&e)))?;
        let mut imports = Vec::new();
        let mut exports = Vec::new();
        // What the entries need to be described like a core module's (`func() -> i64`,
        // `memory(1 pages min)`): the types, and each index space's kinds in order.
        let mut spaces = Spaces::default();
        for payload in wasmparser::Parser::new(0).parse_all(&wasm) {
            match payload? {
                wasmparser::Payload::TypeSection(section) => spaces.types(section)?,
                wasmparser::Payload::ImportSection(section) => {
                    for import in section.into_imports() {
                        let import = import?;
                        let allowed = games
                            .iter()
                            .any(|g| g.snippet.is_some_and(|s| s.import_module == import.module));
                        if !allowed {
                            bail!(
                                "import `{}::{}`: an agent of {} imports only from `{}`",
                                import.module,
                                import.name,
                                games[0].title,
                                games[0].snippet.map_or("", |s| s.import_module)
                            );
                        }
                        imports.push(Entry {
                            name: format!("{}::{}", import.module, import.name),
                            kind: spaces.import(import.ty),
                        });
                    }
                }
                wasmparser::Payload::FunctionSection(section) => spaces.functions(section)?,
                wasmparser::Payload::TableSection(section) => spaces.tables(section)?,
                wasmparser::Payload::MemorySection(section) => spaces.memories(section)?,
                wasmparser::Payload::ExportSection(section) => {
                    for export in section {
                        let export = export?;
                        exports.push(Entry {
                            name: export.name.to_owned(),
                            kind: spaces.export(export.kind, export.index),
                        });
                    }
                }
                _ => {}
            }
        }
        let inner = ModuleInner {
            sandbox: self.clone(),
            sha256: crate::sha256_hex(&wasm),
            size: wasm.len() as u64,
            code: Code::Snippet(wasm.into()),
            name: name.to_owned(),
            path: path.map(Path::to_path_buf),
            exports,
            imports,
            abi_version: 0,
            uses_wasi: false,
            has_init: false,
            has_initialize: false,
            games,
            origin: Origin::Compiled { functions: None },
        };
        Ok(AgentModule {
            inner: Arc::new(inner),
        })
    }

    /// Compiles and checks a component (see `component.rs`), instantiating it once: a component
    /// whose instantiation fails here would fail the same way in every game.
    fn load_component(
        &self,
        name: &str,
        path: Option<&Path>,
        wasm: &[u8],
    ) -> anyhow::Result<AgentModule> {
        let engine = &self.inner.engine;
        let limits = &self.inner.limits;
        check_table_sizes(wasm, limits, "component")?;
        let (compiled, origin) = self
            .inner
            .compiler
            .compile_component(engine, limits, wasm)?;
        let games = self.inner.games;
        let checked = component::check(
            engine,
            &self.inner.components,
            games,
            &compiled,
            limits,
            |pre| probe::probe_component(engine, limits, pre),
        )?;
        let inner = ModuleInner {
            sandbox: self.clone(),
            games: vec![checked.world.game],
            code: Code::Component(checked.world),
            name: name.to_owned(),
            path: path.map(Path::to_path_buf),
            sha256: crate::sha256_hex(wasm),
            size: wasm.len() as u64,
            exports: checked.exports,
            imports: checked.imports,
            abi_version: 0,
            uses_wasi: true,
            has_init: true,
            has_initialize: false,
            origin,
        };
        Ok(AgentModule {
            inner: Arc::new(inner),
        })
    }
}

/// Refuses a module (`what`: "module") or a component (`what`: "component", each of its core
/// modules) whose tables start larger than `limits.table_elements`, with the message the limiter
/// gives at instantiation. It must happen before compiling: the pooling allocator's slots hold
/// `table_elements` elements, and it would refuse such a module when loading its artifact, with
/// a message of its own.
///
/// A module with more tables than [`config::TABLES_PER_INSTANCE`] is refused here too: the pool
/// would refuse it with its own message, and without the pool instantiation would fail in every
/// game, which must not look like the host's failure.
fn check_table_sizes(wasm: &[u8], limits: &Limits, what: &str) -> anyhow::Result<()> {
    // `parse_all` goes into a component's nested modules.
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let wasmparser::Payload::TableSection(tables) = payload? {
            if tables.count() > config::TABLES_PER_INSTANCE {
                let definer = match what {
                    "component" => "a core module of the component",
                    _ => "the module",
                };
                bail!(
                    "{definer} defines {} tables; the arena allows {}",
                    tables.count(),
                    config::TABLES_PER_INSTANCE
                );
            }
            for table in tables {
                let desired = table?.ty.initial;
                if desired > limits.table_elements as u64 {
                    let e = wasmtime::Error::new(LimitExceeded {
                        what: "table",
                        desired: usize::try_from(desired).unwrap_or(usize::MAX),
                        limit: limits.table_elements as usize,
                    });
                    let f = classify(&e, "instantiation", FuelScope::Decision);
                    bail!("cannot instantiate the {what}: {}", f.detail);
                }
            }
        }
    }
    Ok(())
}

/// The snippet games of `all` whose entry the core module `wasm` exports (`None`: none, or the
/// module cannot be read: it is then checked as a byte-ABI agent, which says what is wrong).
fn snippet_games(wasm: &[u8], all: Games) -> Option<Vec<&'static AgentInterface>> {
    let mut games = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let Ok(wasmparser::Payload::ExportSection(section)) = payload {
            for export in section.into_iter().flatten() {
                for &g in all {
                    let entry = g.snippet.map(|s| s.entry);
                    if entry == Some(export.name)
                        && export.kind == wasmparser::ExternalKind::Func
                        && !games.iter().any(|h: &&AgentInterface| h.abi_id == g.abi_id)
                    {
                        games.push(g);
                    }
                }
            }
        }
    }
    (!games.is_empty()).then_some(games)
}

const WASM_MAGIC: &[u8; 4] = b"\0asm";

/// WebAssembly binary bytes (a core module or a component) from a file's content: binaries pass
/// through, text is parsed.
fn to_binary(bytes: &[u8], is_wat_name: bool) -> anyhow::Result<Vec<u8>> {
    if bytes.starts_with(WASM_MAGIC) {
        if bytes.len() < 8 {
            bail!("truncated WebAssembly module: {} bytes", bytes.len());
        }
        let (version, layer) = (
            u16::from_le_bytes([bytes[4], bytes[5]]),
            u16::from_le_bytes([bytes[6], bytes[7]]),
        );
        if layer == 1 && component::is_component(bytes) {
            return Ok(bytes.to_vec());
        }
        if layer == 1 {
            bail!("unsupported WebAssembly component encoding {version} (this arena reads 13)");
        }
        if (version, layer) != (1, 0) {
            bail!("unsupported WebAssembly binary version {version} (layer {layer})");
        }
        return Ok(bytes.to_vec());
    }
    let looks_like_text = std::str::from_utf8(bytes)
        .is_ok_and(|s| s.trim_start().starts_with('(') || s.trim_start().starts_with(";;"));
    if is_wat_name || looks_like_text {
        return wat::parse_bytes(bytes)
            .map(|b| b.into_owned())
            .map_err(|e| anyhow!("invalid WebAssembly text: {e}"));
    }
    bail!(
        "not a WebAssembly module: a .wasm file starts with the bytes \\0asm \
         (or give a .wat text file)"
    )
}
