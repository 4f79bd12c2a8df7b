//! The compiled-module cache: serialized wasmtime artifacts on disk, each sealed with an
//! HMAC-SHA256 under a random per-user secret, so that a league of many agents starts fast the
//! second time and a file someone else wrote or changed is never deserialized.
//!
//! wasmtime trusts what it deserializes (`Module::deserialize` is `unsafe`: a changed artifact
//! can hold any machine code), so an artifact is only loaded when its HMAC checks out. The secret
//! (32 random bytes) lives in the cache folder with mode 0600, the folder with mode 0700; a
//! secret or folder that other users could read or write disables the cache.
//!
//! Layout: `DIR/secret`, `DIR/modules/KEY.cwasm` where KEY is the SHA-256 of the wasm's SHA-256,
//! the engine's `precompile_compatibility_hash`, the arena's version and the limits that reach
//! code generation. A file is `MAGIC`, then the HMAC of (KEY, artifact), then the artifact.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

use super::config::Limits;

const MAGIC: &[u8; 8] = b"ARENACW1";
const SECRET_FILE: &str = "secret";
const MODULES_DIR: &str = "modules";
const SECRET_BYTES: usize = 32;
const MAC_BYTES: usize = 32;
/// Environment variable naming the cache folder; set to an empty value to turn the cache off.
pub const CACHE_DIR_ENV: &str = "ARENA_CACHE_DIR";

/// A cache folder with its secret loaded. Cheap to clone.
#[derive(Clone)]
pub struct ModuleCache {
    dir: PathBuf,
    secret: Arc<[u8; SECRET_BYTES]>,
}

impl std::fmt::Debug for ModuleCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModuleCache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// What a cache lookup found.
pub enum Lookup<A = Module> {
    Hit(A),
    Miss,
    /// A file was there but was refused (bad HMAC, truncated, incompatible); it was removed.
    Refused(String),
}

/// A `Hasher` that feeds SHA-256, to turn wasmtime's compatibility `Hash` into stable bytes.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        let d = self.0.clone().finalize();
        u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl ModuleCache {
    /// The folder the arena uses unless told otherwise: `$ARENA_CACHE_DIR` (empty: no cache),
    /// else `$XDG_CACHE_HOME/arena`, else `$HOME/.cache/arena`.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os(CACHE_DIR_ENV) {
            return (!dir.is_empty()).then(|| PathBuf::from(dir));
        }
        if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(xdg).join("arena"));
        }
        std::env::var_os("HOME")
            .filter(|d| !d.is_empty())
            .map(|h| PathBuf::from(h).join(".cache").join("arena"))
    }

    /// Opens (creating if needed) a cache folder and its secret. Fails when the folder or the
    /// secret could be read or written by another user.
    pub fn open(dir: &Path) -> anyhow::Result<ModuleCache> {
        create_private_dir(dir)?;
        create_private_dir(&dir.join(MODULES_DIR))?;
        let secret = load_or_create_secret(&dir.join(SECRET_FILE))?;
        Ok(ModuleCache {
            dir: dir.to_path_buf(),
            secret: Arc::new(secret),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The secret that seals the cache's files (the compiled-function cache's too).
    pub(crate) fn secret(&self) -> &[u8; SECRET_BYTES] {
        &self.secret
    }

    /// The cache key of `wasm` compiled by `engine` under `limits`, as hex.
    pub fn key(engine: &Engine, limits: &Limits, wasm: &[u8]) -> String {
        let mut h = ShaHasher(Sha256::new());
        h.write(b"arena module cache v1\0");
        h.write(env!("CARGO_PKG_VERSION").as_bytes());
        h.write(&[0]);
        engine.precompile_compatibility_hash().hash(&mut h);
        h.write(&(limits.wasm_stack_bytes as u64).to_le_bytes());
        h.write(&Sha256::digest(wasm));
        crate::sha256_hex(&h.0.finalize())
    }

    /// Where the artifact of `key` is stored.
    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(MODULES_DIR).join(format!("{key}.cwasm"))
    }

    fn mac(&self, key: &str, artifact: &[u8]) -> Hmac<Sha256> {
        let mut mac =
            <Hmac<Sha256> as Mac>::new_from_slice(&self.secret[..]).expect("any key length");
        mac.update(key.as_bytes());
        mac.update(&[0]);
        mac.update(artifact);
        mac
    }

    /// Loads the module of `key` if it is cached and its HMAC checks out. A refused file is
    /// removed (the caller compiles again and stores a fresh one).
    pub fn load(&self, engine: &Engine, key: &str) -> Lookup {
        self.load_as(engine, key)
    }

    /// The same for a compiled component or module.
    pub(crate) fn load_as<A: super::compile::Artifact>(
        &self,
        engine: &Engine,
        key: &str,
    ) -> Lookup<A> {
        let path = self.path(key);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => return Lookup::Refused(format!("cannot read {}: {e}", path.display())),
        };
        let refuse = |why: String| {
            let _ = fs::remove_file(&path);
            Lookup::Refused(format!("{}: {why}", path.display()))
        };
        if bytes.len() < MAGIC.len() + MAC_BYTES || &bytes[..MAGIC.len()] != MAGIC {
            return refuse("not an arena artifact".into());
        }
        let (tag, artifact) = bytes[MAGIC.len()..].split_at(MAC_BYTES);
        if self.mac(key, artifact).verify_slice(tag).is_err() {
            return refuse("the HMAC does not match: the file was changed".into());
        }
        // SAFETY: the artifact carries a valid HMAC under this user's secret, so it is a file
        // this arena wrote from its own compiler's output; wasmtime also checks that it was
        // made by a compatible engine.
        match unsafe { A::deserialize(engine, artifact) } {
            Ok(m) => Lookup::Hit(m),
            Err(e) => refuse(format!("cannot be loaded: {e}")),
        }
    }

    /// Stores an artifact made by this arena's compiler (atomically: a temporary file renamed).
    pub fn store(&self, key: &str, artifact: &[u8]) -> anyhow::Result<()> {
        let path = self.path(key);
        let tag = self.mac(key, artifact).finalize().into_bytes();
        let tmp = path.with_extension(format!("tmp{}", random_suffix()));
        let mut f = private_file(&tmp)?;
        let written = f
            .write_all(MAGIC)
            .and_then(|_| f.write_all(&tag))
            .and_then(|_| f.write_all(artifact))
            .and_then(|_| f.sync_all());
        drop(f);
        if let Err(e) = written.and_then(|_| fs::rename(&tmp, &path)) {
            let _ = fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        Ok(())
    }
}

/// The compiled-function cache's name for the code `engine` makes (hex): the arena's version and
/// wasmtime's compatibility hash of the engine's configuration.
pub(crate) fn engine_key(engine: &Engine) -> String {
    let mut h = ShaHasher(Sha256::new());
    h.write(b"arena function cache v1\0");
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    h.write(&[0]);
    engine.precompile_compatibility_hash().hash(&mut h);
    crate::sha256_hex(&h.0.finalize())[..32].to_owned()
}

fn random_bytes<const N: usize>() -> anyhow::Result<[u8; N]> {
    let mut b = [0u8; N];
    fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .context("cannot read /dev/urandom")?;
    Ok(b)
}

pub(crate) fn random_suffix() -> String {
    let b: [u8; 8] = random_bytes().unwrap_or_else(|_| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (t ^ u64::from(std::process::id())).to_le_bytes()
    });
    crate::sha256_hex(&b)[..16].to_owned()
}

#[cfg(unix)]
pub(crate) fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create the cache folder {}", dir.display()))?;
    let meta = fs::symlink_metadata(dir).with_context(|| format!("{}", dir.display()))?;
    if !meta.is_dir() {
        bail!("{} is not a folder", dir.display());
    }
    // SAFETY: geteuid has no preconditions.
    if meta.uid() != unsafe { libc::geteuid() } {
        bail!("{} belongs to another user", dir.display());
    }
    if meta.permissions().mode() & 0o022 != 0 {
        bail!(
            "{} can be written by other users (mode {:o}); the arena will not trust artifacts \
             stored there",
            dir.display(),
            meta.permissions().mode() & 0o777
        );
    }
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    let _ = dir;
    bail!("the module cache needs Unix file permissions")
}

#[cfg(unix)]
pub(crate) fn private_file(path: &Path) -> anyhow::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))
}

#[cfg(not(unix))]
pub(crate) fn private_file(path: &Path) -> anyhow::Result<fs::File> {
    let _ = path;
    bail!("the module cache needs Unix file permissions")
}

/// Reads the secret, or creates it: written in full to a private temporary file, then linked to
/// its name (a link never replaces an existing file, so concurrent arenas agree on one secret).
fn load_or_create_secret(path: &Path) -> anyhow::Result<[u8; SECRET_BYTES]> {
    if fs::symlink_metadata(path).is_err() {
        let secret: [u8; SECRET_BYTES] = random_bytes()?;
        let tmp = path.with_extension(format!("tmp{}", random_suffix()));
        let mut f = private_file(&tmp)?;
        f.write_all(&secret)
            .and_then(|_| f.sync_all())
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        drop(f);
        let linked = fs::hard_link(&tmp, path);
        let _ = fs::remove_file(&tmp);
        if let Err(e) = linked {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                return Err(e).with_context(|| format!("cannot create {}", path.display()));
            }
        }
    }
    check_private_file(path)?;
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    bytes
        .try_into()
        .map_err(|_| anyhow::anyhow!("{} is not a {SECRET_BYTES}-byte secret", path.display()))
}

#[cfg(unix)]
fn check_private_file(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = fs::symlink_metadata(path).with_context(|| format!("{}", path.display()))?;
    // SAFETY: geteuid has no preconditions.
    if !meta.is_file() || meta.uid() != unsafe { libc::geteuid() } {
        bail!(
            "{} is not a regular file of this user; the cache is not used",
            path.display()
        );
    }
    if meta.permissions().mode() & 0o077 != 0 {
        bail!(
            "{} can be read by other users (mode {:o}); the cache is not used",
            path.display(),
            meta.permissions().mode() & 0o777
        );
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private_file(path: &Path) -> anyhow::Result<()> {
    let _ = path;
    bail!("the module cache needs Unix file permissions")
}
