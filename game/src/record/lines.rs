//! Reading a record one line at a time, in bounded memory: the file (gzip-compressed or not) is
//! decompressed as it is read, a line longer than [`MAX_LINE_BYTES`] is refused as soon as that
//! many bytes are read, and each line is parsed by [`strict_json`](super::strict_json) into at
//! most [`MAX_LINE_VALUES`] values. The digest of every line before the end line is taken as the
//! lines go by, so nothing of a line is kept once the next one is read.

use std::fmt;
use std::io::{BufRead, BufReader, Read};

use serde_json::Value;

use super::strict_json::{self, StrictError};

/// Longest line a record may have, `\n` excluded: 4 MiB. The longest line the arena writes is a
/// line with agents' logs; with the default 16 KiB of log per agent and game that is at most
/// about 600 KiB, even if every logged byte is a control character written as `\u00XX`.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Most JSON values (scalars, arrays, objects and object keys) one line may hold: 100,000. The
/// arena's lines hold a few hundred.
pub const MAX_LINE_VALUES: usize = 100_000;

/// The gzip magic number; a record that starts with it is decompressed.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Why a record could not be read. `line` counts from 1; 0 means the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub message: String,
}

impl ReadError {
    pub fn new(line: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ReadError {}

/// One line of a record, parsed.
#[derive(Debug)]
pub struct Line {
    /// From 1.
    pub number: usize,
    /// A JSON object.
    pub value: Value,
}

impl Line {
    /// The line's `type` field, if it is a string.
    pub fn kind(&self) -> Option<&str> {
        self.value.get("type").and_then(Value::as_str)
    }

    /// The `type` field as a message shows it: `"turn"`, or `no type`.
    pub fn kind_shown(&self) -> String {
        self.value
            .get("type")
            .map_or_else(|| "no type".to_string(), |t| t.to_string())
    }
}

/// Reads a record's lines in order; see the module documentation.
pub struct RecordReader<'r> {
    inner: Box<dyn BufRead + 'r>,
    gzip: bool,
    /// The raw bytes of the line being parsed (reused from line to line).
    buf: Vec<u8>,
    /// Lines read so far.
    number: usize,
    /// SHA-256 of every line read so far that is not an end line, `\n` included.
    digest: ring::digest::Context,
}

impl<'r> RecordReader<'r> {
    /// Reads a record from `reader`, decompressing it if it starts with the gzip magic number.
    pub fn new(mut reader: impl Read + 'r) -> std::io::Result<RecordReader<'r>> {
        let mut head = [0u8; 2];
        let mut n = 0;
        while n < head.len() {
            match reader.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let gzip = head[..n] == GZIP_MAGIC;
        let plain = BufReader::with_capacity(
            64 << 10,
            std::io::Cursor::new(head).take(n as u64).chain(reader),
        );
        let inner: Box<dyn BufRead + 'r> = if gzip {
            Box::new(BufReader::with_capacity(
                64 << 10,
                flate2::bufread::MultiGzDecoder::new(plain),
            ))
        } else {
            Box::new(plain)
        };
        Ok(RecordReader {
            inner,
            gzip,
            buf: Vec::new(),
            number: 0,
            digest: ring::digest::Context::new(&ring::digest::SHA256),
        })
    }

    /// Lines read so far (the number of the last one).
    pub fn lines_read(&self) -> usize {
        self.number
    }

    /// Bytes the reader holds for the line being read: never more than [`MAX_LINE_BYTES`] plus
    /// one, whatever the file.
    pub fn line_buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The next line, parsed as a JSON object; `None` at the end of the file. Every line but an
    /// end line (`"type":"end"`) goes into the digest.
    pub fn next_line(&mut self) -> Result<Option<Line>, ReadError> {
        if !self.fill_line()? {
            return Ok(None);
        }
        self.number += 1;
        let number = self.number;
        let body = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
        let text =
            std::str::from_utf8(body).map_err(|_| ReadError::new(number, "not UTF-8 text"))?;
        if text.trim().is_empty() {
            return Err(ReadError::new(number, "empty line"));
        }
        let value = strict_json::parse(text, MAX_LINE_VALUES).map_err(|e| {
            ReadError::new(
                number,
                match e {
                    StrictError::TooManyValues { .. } => format!(
                        "{e}: no record line holds that many (the limit is in docs/RECORDS.md)"
                    ),
                    _ => e.to_string(),
                },
            )
        })?;
        if !value.is_object() {
            return Err(ReadError::new(number, "not a JSON object"));
        }
        // Only the file's last line can lack it: a record cut short, or written by hand.
        if !self.buf.ends_with(b"\n") {
            return Err(ReadError::new(
                number,
                "the line does not end with \\n: every line of a record ends with one, the last \
                 one too (docs/RECORDS.md)",
            ));
        }
        if value.get("type").and_then(Value::as_str) != Some("end") {
            self.digest.update(&self.buf);
        }
        Ok(Some(Line { number, value }))
    }

    /// The next line, which a record whose end line is still to come must have.
    pub fn next_before_end(&mut self) -> Result<Line, ReadError> {
        self.next_line()?.ok_or_else(|| {
            ReadError::new(self.number + 1, "missing end line: the record is truncated")
        })
    }

    /// The digest of every line read so far except end lines, as RECORDS.md defines it.
    pub fn digest(&self) -> String {
        hex::encode(self.digest.clone().finish())
    }

    /// Checks that nothing follows the line just read.
    pub fn expect_end_of_file(&mut self) -> Result<(), ReadError> {
        let more = match self.inner.fill_buf() {
            Ok(more) => !more.is_empty(),
            Err(e) => return Err(io_error(self.gzip, self.number + 1, &e)),
        };
        if !more {
            Ok(())
        } else {
            Err(ReadError::new(
                self.number + 1,
                "extra line after the end line",
            ))
        }
    }

    /// Reads the next line's bytes into `buf`, `\n` included; false at the end of the file.
    fn fill_line(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        let (gzip, number) = (self.gzip, self.number + 1);
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(gzip, number, &e)),
            };
            if chunk.is_empty() {
                return Ok(!self.buf.is_empty());
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let content = self.buf.len() + take - usize::from(done);
            if content > MAX_LINE_BYTES {
                return Err(ReadError::new(
                    number,
                    format!(
                        "line longer than {} MiB, the most a record line may have (docs/RECORDS.md)",
                        MAX_LINE_BYTES >> 20
                    ),
                ));
            }
            // Grow by doubling, but never past the limit: the buffer is bounded, not just the line.
            let needed = self.buf.len() + take;
            if needed > self.buf.capacity() {
                let target = needed
                    .max(self.buf.capacity() * 2)
                    .min(MAX_LINE_BYTES + 1)
                    .max(needed);
                self.buf.reserve_exact(target - self.buf.len());
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.inner.consume(take);
            if done {
                return Ok(true);
            }
        }
    }
}

/// An error of the reader under a record: a broken gzip stream, or the file itself.
fn io_error(gzip: bool, line: usize, e: &std::io::Error) -> ReadError {
    if gzip {
        ReadError::new(line, format!("not a valid gzip stream: {e}"))
    } else {
        ReadError::new(line, format!("cannot read the record: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_parsed_and_digested_except_the_end_line() {
        let text = "{\"type\":\"a\"}\n{\"type\":\"b\"}\n{\"type\":\"end\",\"x\":1}\n";
        let mut r = RecordReader::new(text.as_bytes()).unwrap();
        assert_eq!(r.next_line().unwrap().unwrap().kind(), Some("a"));
        let b = r.next_line().unwrap().unwrap();
        assert_eq!((b.number, b.kind()), (2, Some("b")));
        let end = r.next_line().unwrap().unwrap();
        assert_eq!(end.number, 3);
        assert_eq!(
            r.digest(),
            super::super::sha256_hex(b"{\"type\":\"a\"}\n{\"type\":\"b\"}\n")
        );
        r.expect_end_of_file().unwrap();
        assert!(r.next_line().unwrap().is_none());
    }

    #[test]
    fn a_line_past_the_limit_is_refused_before_it_is_read_whole() {
        // A reader that would give 100 MiB of one line; only a little over the limit is read.
        let long = std::io::repeat(b'x').take(100 << 20);
        let mut r = RecordReader::new(long).unwrap();
        let e = r.next_line().unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("longer than 4 MiB"), "{e}");
        assert!(r.line_buffer_capacity() <= MAX_LINE_BYTES + 1);
    }

    #[test]
    fn the_line_buffer_never_grows_past_the_limit() {
        // A line of exactly the limit is fine, and the buffer holds no more than it.
        let mut text = vec![b' '; MAX_LINE_BYTES - 2];
        text[0] = b'{';
        text[MAX_LINE_BYTES - 3] = b'}';
        text.push(b'\n');
        let mut r = RecordReader::new(&text[..]).unwrap();
        assert!(r.next_line().unwrap().unwrap().value.is_object());
        assert!(r.line_buffer_capacity() <= MAX_LINE_BYTES + 1);
    }

    #[test]
    fn a_last_line_without_its_line_break_is_refused() {
        let text = "{\"type\":\"a\"}\n{\"type\":\"end\"}";
        let mut r = RecordReader::new(text.as_bytes()).unwrap();
        r.next_line().unwrap();
        let e = r.next_line().unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (
                2,
                "the line does not end with \\n: every line of a record ends with one, the last \
                 one too (docs/RECORDS.md)"
            )
        );
        // A line cut in the middle is refused for what it is.
        let mut r = RecordReader::new(&b"{\"type\":\"a\""[..]).unwrap();
        assert!(r
            .next_line()
            .unwrap_err()
            .message
            .starts_with("not JSON: EOF"));
    }

    #[test]
    fn bytes_after_the_end_line_are_an_extra_line() {
        let mut r = RecordReader::new(&b"{\"type\":\"end\"}\n\n"[..]).unwrap();
        r.next_line().unwrap();
        let e = r.expect_end_of_file().unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "extra line after the end line")
        );
    }
}
