//! The bounded debug log of one agent in one game: `arena.log` and WASI stdout/stderr all land in
//! one buffer of `Limits::log_bytes`; what does not fit is dropped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::p2::OutputStream;

/// One game's log. Cloning shares the buffer (WASI's stdout and stderr hold clones).
#[derive(Clone, Debug)]
pub struct AgentLog {
    pipe: MemoryOutputPipe,
    capacity: usize,
    /// Bytes handed out by [`AgentLog::take`] so far.
    cursor: usize,
    /// Bytes dropped because the log was full (from `arena.log` only: WASI writes to a full
    /// pipe fail instead, as a closed stream).
    dropped: Arc<AtomicU64>,
}

impl AgentLog {
    pub fn new(capacity: usize) -> AgentLog {
        AgentLog {
            pipe: MemoryOutputPipe::new(capacity),
            capacity,
            cursor: 0,
            dropped: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The pipe WASI writes stdout and stderr into.
    pub fn pipe(&self) -> MemoryOutputPipe {
        self.pipe.clone()
    }

    /// Appends what fits of `bytes`; never fails.
    pub fn append(&self, bytes: &[u8]) {
        let room = self.room();
        let n = bytes.len().min(room);
        if n > 0 {
            // The write cannot fail: `n` fits in what is left of the pipe's capacity.
            let mut pipe = self.pipe.clone();
            let _ = OutputStream::write(&mut pipe, Bytes::copy_from_slice(&bytes[..n]));
        }
        if bytes.len() > n {
            self.dropped
                .fetch_add((bytes.len() - n) as u64, Ordering::Relaxed);
        }
    }

    /// Bytes still free.
    pub fn room(&self) -> usize {
        self.capacity.saturating_sub(self.len())
    }

    /// Bytes logged so far in this game.
    pub fn len(&self) -> usize {
        // `contents` copies; the length alone is cheap through `check_write`.
        let mut pipe = self.pipe.clone();
        match OutputStream::check_write(&mut pipe) {
            Ok(free) => self.capacity - free,
            Err(_) => self.capacity,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes `arena.log` could not keep.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// What was logged from byte `start` on (a length [`AgentLog::len`] gave earlier), as text
    /// (invalid UTF-8 replaced).
    pub fn text_since(&self, start: usize) -> String {
        let all = self.pipe.contents();
        String::from_utf8_lossy(&all[start.min(all.len())..]).into_owned()
    }

    /// What was logged since the previous call, as text (invalid UTF-8 replaced), or `None`.
    pub fn take(&mut self) -> Option<String> {
        if self.len() <= self.cursor {
            return None;
        }
        let all = self.pipe.contents();
        let new = &all[self.cursor.min(all.len())..];
        self.cursor = all.len();
        Some(String::from_utf8_lossy(new).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_is_bounded_and_taken_incrementally() {
        let mut log = AgentLog::new(10);
        assert_eq!(log.take(), None);
        log.append(b"hello");
        assert_eq!(log.take().as_deref(), Some("hello"));
        assert_eq!(log.take(), None);
        log.append(b" world, long");
        assert_eq!(log.len(), 10);
        assert_eq!(log.dropped(), 7);
        assert_eq!(log.take().as_deref(), Some(" worl"));
        log.append(b"more");
        assert_eq!(log.take(), None);
    }
}
