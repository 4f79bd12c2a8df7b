//! The compiled-function cache: Cranelift's compiled code of single functions, shared between
//! agents, so that the language runtime inside a Python or JavaScript component (CPython,
//! SpiderMonkey: 10,000 to 13,000 functions, 15 to 20 s of CPU to compile) is compiled once per
//! machine and toolchain version instead of once per agent.
//!
//! wasmtime hands each function to Cranelift's incremental cache ([`wasmtime::CacheStore`]) under
//! a key that is the SHA-256 of everything its machine code depends on: the function's Cranelift
//! IR (the WebAssembly body as translated for this engine: fuel, epochs, bounds checks and the
//! offsets of the instance's fields are in it, the numbers of the functions it calls are not) and
//! the target's flags. Two agents built by the same toolchain version carry the same runtime, so
//! the same functions under the same keys: the second agent's compile finds them here and only
//! translates and links. A function of a different body, or compiled for a different engine,
//! has a different key; a hit is always the code of an identical function.
//!
//! A cached function is machine code the process will run, so it is trusted only as much as the
//! module cache's artifacts (`cache.rs`): the functions are kept in packs in the cache folder,
//! each sealed with an HMAC-SHA256 under the cache's secret. Layout:
//! `DIR/functions/ENGINE/ID.pack`, where ENGINE names the engine's compatibility key (packs of
//! another arena version or configuration are not read, and are removed first when the folder is
//! over its size). A pack is
//!
//! ```text
//! MAGIC | HMAC(secret; "arena function pack v1", ENGINE, index) | index length (u32) | index | code
//! index = SHA-256 of code | count (u32) | count × (key [32 bytes], offset (u32), length (u32))
//! ```
//!
//! A compile reads the index of every pack of its engine (HMAC-checked) and the code of a pack
//! only when one of its functions is asked for (checked against the SHA-256 in the index). A
//! file that fails a check is removed and its functions compiled again.
//!
//! A compile stores the functions it compiled in a new pack unless there were only a few
//! ([`FunctionCacheLimits::new_pack_functions`]): the whole runtime the first time, and what a
//! later agent of that runtime still had to compile. The later ones matter: wasmtime 48 does not
//! give every function the same key from one compile to the next. Compiling one Python component
//! five times in one process, one engine, even on one thread, gave about 5 % of CPython's
//! functions (1,115 to 1,177 of 22,328, a different set each time, libc's `erfc` or `y0` among
//! them) keys never seen before, although the IR printed for them is the same; the variants of
//! a function are few, so with each compile's new functions stored the misses fell from 1,133 to
//! 503, 340 and 251 over four more compiles. When the packs exceed their size limit, the least
//! recently used are removed. Packs are written once (a temporary file renamed) and never
//! changed, so concurrent arenas can share the folder.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs;
use std::io::{Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use anyhow::{bail, Context};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

const MAGIC: &[u8; 8] = b"ARENAFP1";
const MAC_BYTES: usize = 32;
const KEY_BYTES: usize = 32;
const ENTRY_BYTES: usize = KEY_BYTES + 4 + 4;
/// The folder of the packs, inside the module cache's folder.
pub const FUNCTIONS_DIR: &str = "functions";

/// When the compiled-function cache is used, and how much it keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FunctionCacheLimits {
    /// Modules and components with less code than this (bytes of function bodies) are compiled
    /// without the cache: they compile in milliseconds, and reading the packs' indexes would
    /// cost more than it saves. Language runtimes are megabytes (CPython 5.9 MB, SpiderMonkey
    /// 9.2 MB).
    pub min_code_bytes: u64,
    /// A compile that compiled at least this many functions (not found in the cache) stores them
    /// in a new pack: a language runtime not seen before (CPython has 10,625 functions,
    /// SpiderMonkey 12,652; with wasmtime's trampolines, 22,328 functions to compile for a
    /// Python agent), and the functions a later agent of a known runtime compiled (about 5 % of
    /// the runtime's, whose keys vary from one compile to the next: see the module's
    /// documentation), so that the agents after it find them. Fewer are not worth a file.
    pub new_pack_functions: usize,
    /// When the packs together take more than this (bytes), the least recently used are removed.
    pub max_bytes: u64,
}

impl Default for FunctionCacheLimits {
    fn default() -> FunctionCacheLimits {
        FunctionCacheLimits {
            min_code_bytes: 1 << 20,
            new_pack_functions: 64,
            max_bytes: 1 << 30,
        }
    }
}

/// One pack: its index, and its code once a function of it was asked for.
struct Pack {
    path: PathBuf,
    values_sha256: [u8; 32],
    /// Where the code starts in the file.
    values_offset: u64,
    values_len: u64,
    /// The code, read and checked on first use (`None`: it failed the check).
    values: OnceLock<Option<Vec<u8>>>,
    used: AtomicBool,
}

/// The packs of one engine, as a [`wasmtime::CacheStore`] for one compile.
pub struct FunctionCache {
    dir: PathBuf,
    engine_dir: PathBuf,
    secret: [u8; 32],
    engine: String,
    limits: FunctionCacheLimits,
    packs: Vec<Pack>,
    /// Function key → (pack, range in the pack's code).
    index: HashMap<[u8; KEY_BYTES], (usize, Range<usize>)>,
    /// Functions compiled by this compile (not found here).
    new: Mutex<Vec<([u8; KEY_BYTES], Vec<u8>)>>,
    hits: AtomicUsize,
}

impl std::fmt::Debug for FunctionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FunctionCache")
            .field("engine_dir", &self.engine_dir)
            .field("packs", &self.packs.len())
            .field("functions", &self.index.len())
            .finish_non_exhaustive()
    }
}

/// What one compile did with the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FunctionCacheUse {
    /// Functions found in the cache.
    pub hits: usize,
    /// Functions compiled.
    pub compiled: usize,
    /// Whether the compiled functions were stored in a new pack.
    pub stored: bool,
}

impl FunctionCache {
    /// Opens the packs of the engine whose compatibility key is `engine` (hex) in the cache
    /// folder `dir`, whose secret is `secret`. A pack that fails its check is removed (with a
    /// warning).
    pub fn open(
        dir: &Path,
        secret: [u8; 32],
        engine: &str,
        limits: &FunctionCacheLimits,
    ) -> anyhow::Result<FunctionCache> {
        let root = dir.join(FUNCTIONS_DIR);
        let engine_dir = root.join(engine);
        super::cache::create_private_dir(&root)?;
        super::cache::create_private_dir(&engine_dir)?;
        let mut cache = FunctionCache {
            dir: root,
            engine_dir,
            secret,
            engine: engine.to_owned(),
            limits: limits.clone(),
            packs: Vec::new(),
            index: HashMap::new(),
            new: Mutex::new(Vec::new()),
            hits: AtomicUsize::new(0),
        };
        let mut paths: Vec<PathBuf> = fs::read_dir(&cache.engine_dir)
            .with_context(|| format!("cannot read {}", cache.engine_dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "pack"))
            .collect();
        // Newest first: when two packs hold a key, the newer one's copy is used.
        paths.sort_by_key(|p| std::cmp::Reverse(modified(p)));
        for path in paths {
            match cache.read_index(&path) {
                Ok(()) => {}
                Err(e) => {
                    eprintln!(
                        "warning: compiled-function pack refused and removed: {}: {e:#}",
                        path.display()
                    );
                    let _ = fs::remove_file(&path);
                }
            }
        }
        Ok(cache)
    }

    /// Functions the packs hold.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True when no pack holds a function.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    fn mac(&self) -> Hmac<Sha256> {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.secret[..]).expect("any key length");
        mac.update(b"arena function pack v1\0");
        mac.update(self.engine.as_bytes());
        mac.update(&[0]);
        mac
    }

    /// Reads and checks the index of the pack at `path`, and adds its functions.
    fn read_index(&mut self, path: &Path) -> anyhow::Result<()> {
        let mut file = fs::File::open(path).context("cannot open")?;
        let file_len = file.metadata().context("cannot read its size")?.len();
        let mut head = [0u8; MAGIC.len() + MAC_BYTES + 4];
        file.read_exact(&mut head).context("truncated")?;
        if &head[..MAGIC.len()] != MAGIC {
            bail!("not a compiled-function pack");
        }
        let tag = &head[MAGIC.len()..MAGIC.len() + MAC_BYTES];
        let index_len = u32::from_le_bytes(head[MAGIC.len() + MAC_BYTES..].try_into()?) as u64;
        let values_offset = head.len() as u64 + index_len;
        if values_offset > file_len || index_len < 36 {
            bail!("truncated");
        }
        let mut index = vec![0u8; index_len as usize];
        file.read_exact(&mut index).context("truncated")?;
        let mut mac = self.mac();
        mac.update(&index);
        if mac.verify_slice(tag).is_err() {
            bail!("the HMAC does not match: the file was changed");
        }
        let values_sha256: [u8; 32] = index[..32].try_into()?;
        let count = u32::from_le_bytes(index[32..36].try_into()?) as usize;
        let entries = &index[36..];
        if entries.len() != count * ENTRY_BYTES {
            bail!("its index is malformed");
        }
        let values_len = file_len - values_offset;
        let pack = self.packs.len();
        for entry in entries.chunks_exact(ENTRY_BYTES) {
            let key: [u8; KEY_BYTES] = entry[..KEY_BYTES].try_into()?;
            let offset = u32::from_le_bytes(entry[KEY_BYTES..KEY_BYTES + 4].try_into()?) as usize;
            let len = u32::from_le_bytes(entry[KEY_BYTES + 4..].try_into()?) as usize;
            if (offset + len) as u64 > values_len {
                bail!("its index points past its end");
            }
            self.index
                .entry(key)
                .or_insert((pack, offset..offset + len));
        }
        self.packs.push(Pack {
            path: path.to_path_buf(),
            values_sha256,
            values_offset,
            values_len,
            values: OnceLock::new(),
            used: AtomicBool::new(false),
        });
        Ok(())
    }

    /// The checked code of pack `i`, read on first use.
    fn values(&self, i: usize) -> Option<&[u8]> {
        let pack = &self.packs[i];
        pack.values
            .get_or_init(|| {
                let read = || -> anyhow::Result<Vec<u8>> {
                    let mut file = fs::File::open(&pack.path)?;
                    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(pack.values_offset))?;
                    let mut values = Vec::with_capacity(pack.values_len as usize);
                    file.take(pack.values_len).read_to_end(&mut values)?;
                    if values.len() as u64 != pack.values_len
                        || Sha256::digest(&values)[..] != pack.values_sha256
                    {
                        bail!("its code does not match its index: the file was changed");
                    }
                    Ok(values)
                };
                match read() {
                    Ok(v) => Some(v),
                    Err(e) => {
                        eprintln!(
                            "warning: compiled-function pack refused and removed: {}: {e:#}",
                            pack.path.display()
                        );
                        let _ = fs::remove_file(&pack.path);
                        None
                    }
                }
            })
            .as_deref()
    }

    /// After the compile: stores the functions it compiled in a new pack if there are many
    /// ([`FunctionCacheLimits::new_pack_functions`]), marks the packs it used as used now, and
    /// removes the least recently used packs beyond [`FunctionCacheLimits::max_bytes`].
    /// Failures only warn: the compile itself succeeded.
    pub fn finish(&self) -> FunctionCacheUse {
        let new = std::mem::take(&mut *self.new.lock().unwrap_or_else(|e| e.into_inner()));
        let used = FunctionCacheUse {
            hits: self.hits.load(Ordering::Relaxed),
            compiled: new.len(),
            stored: new.len() >= self.limits.new_pack_functions.max(1),
        };
        let now = SystemTime::now();
        for pack in self.packs.iter().filter(|p| p.used.load(Ordering::Relaxed)) {
            if let Ok(f) = fs::File::options().write(true).open(&pack.path) {
                let _ = f.set_modified(now);
            }
        }
        if used.stored {
            match self.write_pack(new) {
                Ok(path) => evict(&self.dir, self.limits.max_bytes, &path),
                Err(e) => eprintln!("warning: cannot store compiled functions: {e:#}"),
            }
        }
        used
    }

    /// Writes `new` as a pack, and returns its path.
    fn write_pack(&self, mut new: Vec<([u8; KEY_BYTES], Vec<u8>)>) -> anyhow::Result<PathBuf> {
        new.sort_by_key(|a| a.0);
        new.dedup_by(|a, b| a.0 == b.0);
        let mut values = Vec::new();
        let mut entries = Vec::with_capacity(new.len() * ENTRY_BYTES);
        for (key, value) in &new {
            let offset = u32::try_from(values.len()).context("the pack is over 4 GiB")?;
            let len = u32::try_from(value.len()).context("a function is over 4 GiB")?;
            entries.extend_from_slice(key);
            entries.extend_from_slice(&offset.to_le_bytes());
            entries.extend_from_slice(&len.to_le_bytes());
            values.extend_from_slice(value);
        }
        let mut index = Vec::with_capacity(36 + entries.len());
        index.extend_from_slice(&Sha256::digest(&values));
        index.extend_from_slice(&(new.len() as u32).to_le_bytes());
        index.extend_from_slice(&entries);
        let mut mac = self.mac();
        mac.update(&index);
        let tag = mac.finalize().into_bytes();
        let name = crate::sha256_hex(&index);
        let path = self.engine_dir.join(format!("{}.pack", &name[..32]));
        let tmp = path.with_extension(format!("tmp{}", super::cache::random_suffix()));
        let mut f = super::cache::private_file(&tmp)?;
        let written = f
            .write_all(MAGIC)
            .and_then(|_| f.write_all(&tag))
            .and_then(|_| f.write_all(&(index.len() as u32).to_le_bytes()))
            .and_then(|_| f.write_all(&index))
            .and_then(|_| f.write_all(&values))
            .and_then(|_| f.sync_all());
        drop(f);
        if let Err(e) = written.and_then(|_| fs::rename(&tmp, &path)) {
            let _ = fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        Ok(path)
    }
}

impl wasmtime::CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let key: &[u8; KEY_BYTES] = key.try_into().ok()?;
        let (pack, range) = self.index.get(key)?;
        let value = self.values(*pack)?.get(range.clone())?;
        self.packs[*pack].used.store(true, Ordering::Relaxed);
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(Cow::Borrowed(value))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let Ok(key) = <[u8; KEY_BYTES]>::try_from(key) else {
            return false;
        };
        self.new
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, value));
        true
    }
}

fn modified(path: &Path) -> SystemTime {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Removes the least recently used packs (of any engine: another arena version's are never used
/// again) until those under `root` take at most `max_bytes`; never `keep`, the pack just written
/// (file times may be too coarse to tell it from a pack written a moment before).
fn evict(root: &Path, max_bytes: u64, keep: &Path) {
    let Ok(engines) = fs::read_dir(root) else {
        return;
    };
    let mut packs: Vec<(SystemTime, u64, PathBuf)> = engines
        .filter_map(|e| e.ok())
        .filter_map(|e| fs::read_dir(e.path()).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            let path = e.path();
            let is_pack = meta.is_file() && path.extension().is_some_and(|x| x == "pack");
            is_pack.then(|| {
                (
                    meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                    meta.len(),
                    path,
                )
            })
        })
        .collect();
    let mut total: u64 = packs.iter().map(|p| p.1).sum();
    packs.sort_by_key(|p| p.0);
    for (_, len, path) in packs {
        if total <= max_bytes {
            break;
        }
        if path != keep && fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}
