//! The compiled-function cache: a module that shares its functions with one compiled before
//! (two agents of one language runtime, whose snapshots differ) takes their code from the cache
//! and runs as if compiled in full; a pack that was changed, or sealed under another secret, is
//! refused and removed; the least recently used packs go when the cache is over its size.

use std::path::{Path, PathBuf};

use wasmtime::{Instance, Store};

use super::*;

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "arena-function-cache-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A "runtime" of `n` functions (each folds its argument with its own constants and calls the
/// previous one) and a data segment that stands for the agent's snapshot: two agents of the same
/// runtime differ only in `snapshot`. `run(x)` returns function `n - 1` of `x`.
fn runtime_module(n: usize, snapshot: &str) -> Vec<u8> {
    let mut wat = String::from("(module (memory (export \"memory\") 1)\n");
    wat.push_str(&format!("(data (i32.const 16) \"{snapshot}\")\n"));
    wat.push_str("(func $f0 (param i32) (result i32) local.get 0 i32.const 7 i32.mul)\n");
    for i in 1..n {
        wat.push_str(&format!(
            "(func $f{i} (param i32) (result i32) local.get 0 i32.const {} i32.xor \
             call $f{} i32.const {} i32.add)\n",
            i * 31,
            i - 1,
            i
        ));
    }
    wat.push_str(&format!(
        "(func (export \"run\") (param i32) (result i32) local.get 0 call $f{})\n\
         (func (export \"snapshot\") (result i32) i32.const 16 i32.load8_u))",
        n - 1
    ));
    wat::parse_str(&wat).unwrap()
}

/// What `run(x)` of [`runtime_module`] returns, computed here.
fn expected_run(n: usize, x: i32) -> i32 {
    fn f(i: usize, x: i32) -> i32 {
        if i == 0 {
            return x.wrapping_mul(7);
        }
        f(i - 1, x ^ (i as i32 * 31)).wrapping_add(i as i32)
    }
    f(n - 1, x)
}

const FUNCTIONS: usize = 40;

fn compiler(cache_dir: &Path) -> Compiler {
    Compiler {
        executable: None,
        cache: Some(ModuleCache::open(cache_dir).unwrap()),
        limits: CompileLimits {
            functions: FunctionCacheLimits {
                min_code_bytes: 0,
                new_pack_functions: 20,
                ..FunctionCacheLimits::default()
            },
            ..CompileLimits::default()
        },
    }
}

/// Compiles `wasm` with `compiler`, runs `run(5)` and the snapshot's first byte, and says what
/// the function cache gave.
fn compile_and_run(compiler: &Compiler, wasm: &[u8]) -> (FunctionCacheUse, i32, i32) {
    let sandbox = Sandbox::with_compiler(
        super::game_for_tests::GAMES,
        Limits::default(),
        compiler.clone(),
    )
    .unwrap();
    let (module, origin) = compiler
        .compile_or_reuse(sandbox.engine(), sandbox.limits(), wasm)
        .unwrap();
    let Origin::Compiled {
        functions: Some(used),
    } = origin
    else {
        panic!("compiled without the function cache: {origin:?}");
    };
    let mut store = Store::new(sandbox.engine(), ());
    store.set_fuel(1_000_000).unwrap();
    store.set_epoch_deadline(1_000_000);
    let instance = Instance::new(&mut store, &module, &[]).unwrap();
    let run = instance
        .get_typed_func::<i32, i32>(&mut store, "run")
        .unwrap();
    let snapshot = instance
        .get_typed_func::<(), i32>(&mut store, "snapshot")
        .unwrap();
    let value = run.call(&mut store, 5).unwrap();
    let first = snapshot.call(&mut store, ()).unwrap();
    (used, value, first)
}

fn packs(cache_dir: &Path) -> Vec<PathBuf> {
    let root = cache_dir.join(FUNCTIONS_DIR);
    let mut all = Vec::new();
    for engine in std::fs::read_dir(root).unwrap() {
        for pack in std::fs::read_dir(engine.unwrap().path()).unwrap() {
            let path = pack.unwrap().path();
            if path.extension().is_some_and(|e| e == "pack") {
                all.push(path);
            }
        }
    }
    all
}

#[test]
fn a_module_sharing_a_runtime_takes_its_functions_from_the_cache_and_runs_the_same() {
    let dir = Scratch::new("share");
    let c = compiler(&dir.0);
    let first = runtime_module(FUNCTIONS, "A");
    let (used, value, snapshot) = compile_and_run(&c, &first);
    assert_eq!(used.hits, 0, "{used:?}");
    assert!(used.compiled > FUNCTIONS, "{used:?}");
    assert!(used.stored, "{used:?}");
    assert_eq!(
        (value, snapshot),
        (expected_run(FUNCTIONS, 5), i32::from(b'A'))
    );
    assert_eq!(packs(&dir.0).len(), 1);

    // Another agent of the same runtime: its own snapshot, the same functions.
    let second = runtime_module(FUNCTIONS, "B");
    let (used2, value, snapshot) = compile_and_run(&c, &second);
    // Nearly every function of the runtime comes from the cache: wasmtime's keys of a few of
    // this module's functions differ between two engines, and how many varies from run to run
    // (1 to 4 of 51 seen, with the other tests compiling at the same time; the arena's real
    // runtimes show the same: a few percent of their functions are compiled again per agent).
    assert_eq!(used2.hits + used2.compiled, used.compiled, "{used2:?}");
    assert!(used2.compiled <= FUNCTIONS / 4, "{used2:?}");
    assert!(!used2.stored, "{used2:?}");
    assert_eq!(
        (value, snapshot),
        (expected_run(FUNCTIONS, 5), i32::from(b'B'))
    );
    assert_eq!(packs(&dir.0).len(), 1, "nothing new to store");

    // A runtime with one more function: the others keep their code (a call names its callee by
    // position, which is not part of a function's key), only the new ones are compiled.
    let changed = runtime_module(FUNCTIONS + 1, "C");
    let (used3, value, _) = compile_and_run(&c, &changed);
    assert!(used3.hits >= FUNCTIONS - 1, "{used3:?}");
    assert!(used3.compiled >= 1, "{used3:?}");
    assert_eq!(value, expected_run(FUNCTIONS + 1, 5));
}

/// With the default limits, the functions a later agent of a known runtime had to compile are
/// stored too, so that the agents after it find them (wasmtime gives some functions new keys
/// from one compile to the next: without this, every later agent compiles them again).
#[test]
fn what_a_later_agent_compiled_is_stored_for_the_agents_after_it() {
    let dir = Scratch::new("later");
    let mut c = compiler(&dir.0);
    c.limits.functions = FunctionCacheLimits {
        min_code_bytes: 0,
        ..FunctionCacheLimits::default()
    };
    let (first, _, _) = compile_and_run(&c, &runtime_module(200, "A"));
    assert!(first.stored, "{first:?}");
    // A later agent whose runtime has 100 functions more: those (and the few whose keys changed)
    // are compiled, and stored.
    let (later, value, _) = compile_and_run(&c, &runtime_module(300, "B"));
    assert!(later.compiled >= 100, "{later:?}");
    assert!(later.stored, "{later:?}");
    assert_eq!(value, expected_run(300, 5));
    assert_eq!(packs(&dir.0).len(), 2);
    // The agent after it finds them: only the few functions whose keys changed are compiled.
    let (next, value, _) = compile_and_run(&c, &runtime_module(300, "C"));
    assert!(next.compiled < 60, "{next:?}");
    assert_eq!(value, expected_run(300, 5));
}

#[test]
fn a_changed_pack_is_refused_and_removed_and_its_functions_compiled_again() {
    let dir = Scratch::new("tamper");
    let c = compiler(&dir.0);
    let (used, _, _) = compile_and_run(&c, &runtime_module(FUNCTIONS, "A"));
    assert!(used.stored);
    let [pack] = &packs(&dir.0)[..] else {
        panic!("one pack expected");
    };

    // One byte of the code changed (the index's hash of the code no longer matches).
    let last = std::fs::read(pack).unwrap().len() - 1;
    change_a_byte_then_refused(&c, pack, last, "B");

    // One byte of the index changed (its HMAC no longer matches): refused when opened.
    let [pack] = &packs(&dir.0)[..] else {
        panic!("the compile after the refusal stored a new pack");
    };
    change_a_byte_then_refused(&c, pack, 8 + 32 + 4 + 40, "C");
}

/// Flips a bit of byte `at` of `pack`, then compiles a runtime (snapshot `snapshot`): the changed
/// pack is not used, and is removed (the functions compiled again are stored anew).
fn change_a_byte_then_refused(c: &Compiler, pack: &Path, at: usize, snapshot: &str) {
    let mut bytes = std::fs::read(pack).unwrap();
    bytes[at] ^= 0x01;
    std::fs::write(pack, &bytes).unwrap();
    let (used, value, _) = compile_and_run(c, &runtime_module(FUNCTIONS, snapshot));
    assert_eq!(used.hits, 0, "the changed pack was used: {used:?}");
    assert_eq!(value, expected_run(FUNCTIONS, 5));
    assert_ne!(
        std::fs::read(pack).ok().as_ref(),
        Some(&bytes),
        "the changed pack is removed (and the functions compiled again stored anew)"
    );
}

#[test]
fn a_pack_sealed_under_another_secret_is_refused() {
    let (mine, theirs) = (Scratch::new("mine"), Scratch::new("theirs"));
    compile_and_run(&compiler(&theirs.0), &runtime_module(FUNCTIONS, "A"));
    // Their pack copied into my cache, as if someone else wrote it there.
    let c = compiler(&mine.0);
    compile_and_run(&c, &runtime_module(3, "x"));
    let [their_pack] = &packs(&theirs.0)[..] else {
        panic!("one pack expected");
    };
    let engine_dir = their_pack.parent().unwrap().file_name().unwrap();
    let planted = mine
        .0
        .join(FUNCTIONS_DIR)
        .join(engine_dir)
        .join(their_pack.file_name().unwrap());
    std::fs::create_dir_all(planted.parent().unwrap()).unwrap();
    std::fs::copy(their_pack, &planted).unwrap();
    let (used, value, _) = compile_and_run(&c, &runtime_module(FUNCTIONS, "B"));
    assert_eq!(used.hits, 0, "a foreign pack was used: {used:?}");
    assert_eq!(value, expected_run(FUNCTIONS, 5));
    // Removed, and the same functions stored again under this cache's own secret.
    assert_ne!(
        std::fs::read(&planted).ok(),
        std::fs::read(their_pack).ok(),
        "the foreign pack is removed"
    );
}

#[test]
fn the_least_recently_used_packs_go_when_the_cache_is_over_its_size() {
    let dir = Scratch::new("evict");
    let mut c = compiler(&dir.0);
    compile_and_run(&c, &runtime_module(FUNCTIONS, "A"));
    let [first] = &packs(&dir.0)[..] else {
        panic!("one pack expected");
    };
    let size = std::fs::metadata(first).unwrap().len();
    // Room for about one pack: storing a second one removes the older.
    c.limits.functions.max_bytes = size + size / 2;
    // A different runtime (other functions): nothing in common with the first.
    let mut wat = String::from("(module (memory (export \"memory\") 1)");
    for i in 0..FUNCTIONS {
        wat.push_str(&format!(
            "(func (export \"g{i}\") (param i32) (result i32) local.get 0 i32.const {} i32.sub)",
            i + 1000
        ));
    }
    wat.push(')');
    let sandbox =
        Sandbox::with_compiler(super::game_for_tests::GAMES, Limits::default(), c.clone()).unwrap();
    let (_, origin) = c
        .compile_or_reuse(
            sandbox.engine(),
            sandbox.limits(),
            &wat::parse_str(&wat).unwrap(),
        )
        .unwrap();
    assert!(
        matches!(origin, Origin::Compiled { functions: Some(u) } if u.stored),
        "{origin:?}"
    );
    let now = packs(&dir.0);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(&now[0], first, "the older pack went");
}
