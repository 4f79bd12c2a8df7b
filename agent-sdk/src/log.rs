use core::fmt;

/// Appends `msg` to the agent's debug log (the host import `arena.log`). The host keeps a bounded
/// log per game and drops what does not fit. On non-wasm targets this does nothing.
pub fn log(msg: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        #[link(wasm_import_module = "arena")]
        unsafe extern "C" {
            #[link_name = "log"]
            fn arena_log(ptr: i32, len: i32);
        }
        // SAFETY: the host only reads `len` bytes at `ptr` from this instance's memory.
        unsafe { arena_log(msg.as_ptr() as usize as i32, msg.len() as i32) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = msg;
}

/// A fixed buffer for formatting a log line without an allocator; output past its end is cut.
pub struct LogBuffer<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> LogBuffer<N> {
    pub const fn new() -> Self {
        LogBuffer {
            bytes: [0; N],
            len: 0,
        }
    }

    pub fn as_str(&self) -> &str {
        match core::str::from_utf8(&self.bytes[..self.len]) {
            Ok(s) => s,
            // Cut inside a character: keep the valid prefix.
            Err(e) => core::str::from_utf8(&self.bytes[..e.valid_up_to()]).unwrap_or(""),
        }
    }
}

impl<const N: usize> Default for LogBuffer<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Write for LogBuffer<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = N - self.len;
        let n = s.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Formats into a 256-byte buffer (longer lines are cut) and writes it with [`log`].
/// A newline is appended.
#[macro_export]
macro_rules! log {
    ($($arg:tt)*) => {{
        let mut line = $crate::LogBuffer::<256>::new();
        let _ = ::core::fmt::Write::write_fmt(&mut line, format_args!($($arg)*));
        let _ = ::core::fmt::Write::write_str(&mut line, "\n");
        $crate::log(line.as_str());
    }};
}
