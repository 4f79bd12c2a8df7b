//! The sandbox (one wasmtime engine) and agent modules: reading, validating against ABI v1,
//! compiling once.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context};
use arena_abi::names;
use wasmtime::{Engine, ExternType, FuncType, InstancePre, Linker, Module, ValType};

use super::capacity;
use super::compile::{Compiler, Origin};
use super::component::{self, World};
use super::component_linker;
use super::config::{self, Allocation, Limits, DEFAULT_INSTANCES, EPOCH_TICK};
use super::faults::{classify, one_line, FuelScope, LimitExceeded};
use super::interface::{AgentInterface, Games};
use super::player::{self, HostState, WasmPlayer};
use super::snippet_entries::Spaces;
use super::wasi::{self, WASI_MODULE};

/// Round cap announced to agents created with [`AgentModule::player`] (the league's default).
pub const DEFAULT_ROUND_CAP: u32 = 300;

/// One wasmtime engine with the arena's hardened configuration, its epoch ticker and the host
/// functions agents may import. Create one per process and clone it (clones share everything).
#[derive(Clone)]
pub struct Sandbox {
    inner: Arc<SandboxInner>,
}

pub(crate) struct SandboxInner {
    pub(crate) engine: Engine,
    allocation: Allocation,
    /// Agent instances the sandbox can hold at once.
    instances: u32,
    pub(crate) limits: Limits,
    compiler: Compiler,
    /// The games whose agents the sandbox hosts.
    games: Games,
    /// `arena.log` only.
    plain: Linker<HostState>,
    /// `arena.log` and WASI preview 1.
    with_wasi: Linker<HostState>,
    /// Components: `arena:games/host` and WASI 0.2.
    components: wasmtime::component::Linker<HostState>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// A sandbox for the agents of `games` whose modules are compiled by
    /// [`Compiler::process_default`] (for the `arena` command: in a limited child process, with
    /// the module cache), holding up to [`DEFAULT_INSTANCES`] agent instances at once.
    pub fn new(games: Games, limits: Limits) -> anyhow::Result<Sandbox> {
        Sandbox::for_instances(games, limits, DEFAULT_INSTANCES)
    }

    /// A sandbox that holds `instances` agent instances at once (a league: threads × players per
    /// game), or as many as the address space allows ([`Sandbox::instances`]); fails when not
    /// one fits.
    pub fn for_instances(games: Games, limits: Limits, instances: u32) -> anyhow::Result<Sandbox> {
        Sandbox::build(games, limits, Compiler::process_default(), instances)
    }

    /// A sandbox whose modules are compiled by `compiler`.
    pub fn with_compiler(
        games: Games,
        limits: Limits,
        compiler: Compiler,
    ) -> anyhow::Result<Sandbox> {
        Sandbox::build(games, limits, compiler, DEFAULT_INSTANCES)
    }

    fn build(
        games: Games,
        limits: Limits,
        compiler: Compiler,
        wanted: u32,
    ) -> anyhow::Result<Sandbox> {
        limits.validate().context("invalid sandbox limits")?;
        let instances = capacity::instances_that_fit(wanted.max(1));
        if instances == 0 {
            capacity::too_few(0, 1)?;
        }
        let (engine, allocation) =
            config::engine(&limits, instances).context("cannot create the wasmtime engine")?;
        Sandbox::with_engine(games, limits, compiler, engine, allocation, instances)
    }

    /// A sandbox that allocates instances as `allocation` says, whatever the machine would pick
    /// (tests of each way of allocating, here and in the games).
    pub fn allocating(
        games: Games,
        limits: Limits,
        allocation: Allocation,
    ) -> anyhow::Result<Sandbox> {
        Sandbox::allocating_instances(games, limits, allocation, DEFAULT_INSTANCES)
    }

    /// The same with a pool of `instances` slots.
    pub fn allocating_instances(
        games: Games,
        limits: Limits,
        allocation: Allocation,
        instances: u32,
    ) -> anyhow::Result<Sandbox> {
        let engine = config::engine_allocating(&limits, allocation, instances)?;
        Sandbox::with_engine(
            games,
            limits,
            Compiler::process_default(),
            engine,
            allocation,
            instances,
        )
    }

    fn with_engine(
        games: Games,
        limits: Limits,
        compiler: Compiler,
        engine: Engine,
        allocation: Allocation,
        instances: u32,
    ) -> anyhow::Result<Sandbox> {
        let mut plain = Linker::new(&engine);
        player::add_host_functions(&mut plain)?;
        let mut with_wasi = Linker::new(&engine);
        player::add_host_functions(&mut with_wasi)?;
        wasi::add_to_linker(&mut with_wasi)?;
        let mut components = component_linker::linker(&engine)?;
        component::add_type_interfaces(&mut components, games)?;
        start_ticker(&engine)?;
        Ok(Sandbox {
            inner: Arc::new(SandboxInner {
                engine,
                allocation,
                instances,
                limits,
                compiler,
                games,
                plain,
                with_wasi,
                components,
            }),
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// How instances are allocated on this machine.
    pub fn allocation(&self) -> Allocation {
        self.inner.allocation
    }

    /// Agent instances the sandbox holds at once: what its maker asked for, or fewer when the
    /// address space is limited.
    pub fn instances(&self) -> u32 {
        self.inner.instances
    }

    /// Games of `players` agents the sandbox can play at once (at most `wanted`); fails, saying
    /// what to change, when not even one fits.
    pub fn games_at_once(&self, players: usize, wanted: usize) -> anyhow::Result<usize> {
        let games = self.inner.instances as usize / players.max(1);
        if games == 0 {
            capacity::too_few(self.inner.instances, players)?;
        }
        Ok(games.min(wanted))
    }

    /// The games whose agents the sandbox hosts.
    pub fn games(&self) -> Games {
        self.inner.games
    }

    /// How this sandbox compiles modules.
    pub fn compiler(&self) -> &Compiler {
        &self.inner.compiler
    }

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
        let version = player::probe_abi_version(&inner)?;
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
            |pre| player::probe_component(engine, limits, pre),
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

/// One bump of the engine's epoch every [`EPOCH_TICK`], for as long as the engine lives.
pub(super) fn start_ticker(engine: &Engine) -> anyhow::Result<()> {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("arena-epoch".into())
        .stack_size(64 << 10)
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .context("cannot start the epoch ticker thread")?;
    Ok(())
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

fn func<'a>(params: &'a [ValType], results: &'a [ValType]) -> impl Fn(&FuncType) -> bool + 'a {
    move |ty: &FuncType| {
        ty.params().len() == params.len()
            && ty.results().len() == results.len()
            && ty.params().zip(params).all(|(a, b)| a.matches(b))
            && ty.results().zip(results).all(|(a, b)| a.matches(b))
    }
}

fn describe(ty: &ExternType) -> String {
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

/// An import or an export of an agent module: name and kind with signature.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// `module::name` for an import, the export name for an export.
    pub name: String,
    /// `func(i32) -> i32`, `memory(17 pages min)`...
    pub kind: String,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.kind)
    }
}

fn check_imports(module: &Module) -> anyhow::Result<Vec<Entry>> {
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
fn check_exports(
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

/// A validated, compiled agent. Cheap to clone; `player()` makes a fresh player for each game.
#[derive(Clone)]
pub struct AgentModule {
    pub(crate) inner: Arc<ModuleInner>,
}

pub(crate) struct ModuleInner {
    pub(crate) sandbox: Sandbox,
    pub(crate) code: Code,
    name: String,
    path: Option<PathBuf>,
    sha256: String,
    size: u64,
    exports: Vec<Entry>,
    imports: Vec<Entry>,
    abi_version: u32,
    pub(crate) uses_wasi: bool,
    pub(crate) has_init: bool,
    pub(crate) has_initialize: bool,
    /// The games whose decision exports the module has (a component: its world's).
    games: Vec<&'static AgentInterface>,
    /// Where the compiled code came from (the module cache: loading compiled nothing).
    origin: Origin,
}

/// What an agent is made of.
pub(crate) enum Code {
    /// A core module speaking the byte ABI.
    Core(InstancePre<HostState>),
    /// A component of one world of the WIT package.
    Component(World),
    /// A snippet agent's bytes: its game compiles and runs it ([`crate::Snippets`]).
    Snippet(Arc<[u8]>),
}

impl ModuleInner {
    pub(crate) fn limits(&self) -> &Limits {
        &self.sandbox.inner.limits
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.sandbox.inner.engine
    }
}

impl fmt::Debug for AgentModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentModule")
            .field("name", &self.inner.name)
            .field("sha256", &self.inner.sha256)
            .field("size", &self.inner.size)
            .field("uses_wasi", &self.inner.uses_wasi)
            .finish_non_exhaustive()
    }
}

impl AgentModule {
    /// Display name: the file stem, or the name given to `load_bytes`.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The file it was loaded from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// Lower-case hex SHA-256 of the WebAssembly binary (after converting text, for `.wat`).
    pub fn sha256(&self) -> &str {
        &self.inner.sha256
    }

    /// Size of the WebAssembly binary in bytes.
    pub fn size(&self) -> u64 {
        self.inner.size
    }

    pub fn exports(&self) -> &[Entry] {
        &self.inner.exports
    }

    pub fn imports(&self) -> &[Entry] {
        &self.inner.imports
    }

    /// What `arena_abi_version()` returned (always `arena_abi::ABI_VERSION` once loaded; 0 for
    /// a component, which has no byte ABI).
    pub fn abi_version(&self) -> u32 {
        self.inner.abi_version
    }

    /// True for a component (world `arena:games/...` of the WIT package), false for a core
    /// module.
    pub fn is_component(&self) -> bool {
        matches!(self.inner.code, Code::Component(_))
    }

    /// The WIT world of a component (`arena:games/NAME@VERSION`), `None` for a core module.
    pub fn world(&self) -> Option<&'static str> {
        match &self.inner.code {
            Code::Component(world) => Some(world.name()),
            Code::Core(_) | Code::Snippet(_) => None,
        }
    }

    /// True when the module imports WASI (preview 1; a component always links WASI 0.2).
    pub fn uses_wasi(&self) -> bool {
        self.inner.uses_wasi
    }

    /// True when the module exports the optional `arena_init`.
    pub fn has_init(&self) -> bool {
        self.inner.has_init
    }

    /// True when loading read the compiled code from the module cache instead of compiling.
    pub fn compiled_from_cache(&self) -> bool {
        self.inner.origin == Origin::ModuleCache
    }

    /// Where loading found the compiled code: the module cache, or a compile (with what the
    /// compiled-function cache gave it).
    pub fn compile_origin(&self) -> Origin {
        self.inner.origin
    }

    /// Makes a fresh instance for a game and drops it: a new store, the instantiation (a start
    /// function runs) and nothing else, no `init` and no decision. What `arena bench
    /// --components` times as instantiation.
    pub fn instantiate_once(&self) -> anyhow::Result<()> {
        player::instantiate_once(&self.inner)
    }

    /// A snippet agent's bytes (a module of a game whose agents are snippets: see
    /// [`AgentInterface::snippet`]); `None` for every other agent.
    pub fn snippet(&self) -> Option<&[u8]> {
        match &self.inner.code {
            Code::Snippet(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The sandbox (and limits) this module was compiled for.
    pub fn sandbox(&self) -> &Sandbox {
        &self.inner.sandbox
    }

    /// A player for one game, announcing [`DEFAULT_ROUND_CAP`] to the agent's `arena_init`.
    /// The agent is instantiated when the game calls [`WasmPlayer::start`].
    pub fn player(&self) -> WasmPlayer {
        WasmPlayer::new(self.clone(), DEFAULT_ROUND_CAP)
    }

    /// The games whose decision exports the module has (a component: the game of its world).
    pub fn games(&self) -> &[&'static AgentInterface] {
        &self.inner.games
    }

    /// Whether the module has every decision export of `game`.
    pub fn plays(&self, game: &AgentInterface) -> bool {
        self.inner.games.iter().any(|g| g.abi_id == game.abi_id)
    }

    /// Fails, naming the missing exports, unless the module plays `game`.
    pub fn check_plays(&self, game: &AgentInterface) -> anyhow::Result<()> {
        if self.plays(game) {
            return Ok(());
        }
        if let Some(world) = self.world() {
            bail!(
                "the agent does not play {}: it is a component of world {world} (a component \
                 plays the one game of its world)",
                game.title
            );
        }
        let missing: Vec<String> = game
            .decisions
            .iter()
            .chain(game.snippet.as_ref().map(|s| &s.entry))
            .filter(|name| !self.inner.exports.iter().any(|e| e.name == **name))
            .map(|name| format!("`{name}`"))
            .collect();
        bail!(
            "the agent does not play {}: missing export {}",
            game.title,
            missing.join(", ")
        )
    }

    /// A player for one game whose round cap is `round_cap` (told to the agent at init).
    pub fn player_with_round_cap(&self, round_cap: u32) -> WasmPlayer {
        WasmPlayer::new(self.clone(), round_cap)
    }
}
