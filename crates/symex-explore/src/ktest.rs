//! KLEE's `.ktest` format (what `ktest-tool` reads): magic `KTEST`, version 3, the program arguments, and
//! the symbolic objects as (name, bytes); every integer a big-endian `u32`.

use symex_engine::TestInput;

/// The `.ktest` bytes of a test with `args` as the program's arguments.
pub fn encode(args: &[String], inputs: &[TestInput]) -> Vec<u8> {
    let mut out = Vec::new();
    let u32be = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_be_bytes());
    out.extend_from_slice(b"KTEST");
    u32be(&mut out, 3);
    u32be(&mut out, args.len());
    for a in args {
        u32be(&mut out, a.len());
        out.extend_from_slice(a.as_bytes());
    }
    u32be(&mut out, 0); // sym_argvs
    u32be(&mut out, 0); // sym_argv_len
    u32be(&mut out, inputs.len());
    for i in inputs {
        u32be(&mut out, i.name.len());
        out.extend_from_slice(i.name.as_bytes());
        u32be(&mut out, i.bytes.len());
        out.extend_from_slice(&i.bytes);
    }
    out
}

/// A `.ktest` file read back: the program's arguments and the symbolic objects, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KTest {
    pub args: Vec<String>,
    pub objects: Vec<TestInput>,
}

/// Reads a `.ktest` file (versions 1 to 3, as KLEE's `kTest_fromFile`); the error names what is wrong and
/// at which byte.
pub fn decode(bytes: &[u8]) -> Result<KTest, String> {
    let mut r = Reader { bytes, at: 0 };
    let magic = r.take(5)?;
    if magic != b"KTEST" && magic != b"BOUT\n" {
        return Err("not a .ktest file (no KTEST magic)".into());
    }
    let version = r.u32()?;
    if !(1..=3).contains(&version) {
        return Err(format!("unsupported .ktest version {version}"));
    }
    let args = (0..r.u32()?)
        .map(|_| r.string())
        .collect::<Result<Vec<_>, _>>()?;
    if version >= 2 {
        r.u32()?; // sym_argvs
        r.u32()?; // sym_argv_len
    }
    let objects = (0..r.u32()?)
        .map(|_| {
            let name = r.string()?;
            let n = r.u32()? as usize;
            Ok(TestInput {
                name,
                bytes: r.take(n)?.to_vec(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    if r.at != bytes.len() {
        return Err(format!(
            "{} bytes after the last object",
            bytes.len() - r.at
        ));
    }
    Ok(KTest { args, objects })
}

/// A cursor over the bytes of a `.ktest` file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!("truncated at byte {}", self.at));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reads_what_encode_writes() {
        let objects = vec![
            TestInput {
                name: "x".into(),
                bytes: vec![1, 2, 3, 4],
            },
            TestInput {
                name: "argv[1]".into(),
                bytes: vec![],
            },
        ];
        let k = decode(&encode(&["prog.c".into()], &objects)).unwrap();
        assert_eq!(k.args, vec!["prog.c".to_string()]);
        assert_eq!(k.objects, objects);
        let bytes = encode(&["p".into()], &objects);
        assert!(decode(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        assert!(decode(b"KTESX").is_err());
    }

    #[test]
    fn layout_matches_klee() {
        let t = encode(
            &["prog".into()],
            &[TestInput {
                name: "a".into(),
                bytes: vec![1, 2],
            }],
        );
        let mut want = b"KTEST".to_vec();
        for v in [3u32, 1, 4] {
            want.extend_from_slice(&v.to_be_bytes());
        }
        want.extend_from_slice(b"prog");
        for v in [0u32, 0, 1, 1] {
            want.extend_from_slice(&v.to_be_bytes());
        }
        want.push(b'a');
        want.extend_from_slice(&2u32.to_be_bytes());
        want.extend_from_slice(&[1, 2]);
        assert_eq!(t, want);
    }
}
