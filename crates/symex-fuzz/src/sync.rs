//! Hybrid fuzzing with AFL++ through its sync directory (`afl-fuzz -o DIR -M/-S NAME`): every fuzzer
//! instance keeps its inputs in `DIR/NAME/queue/id:NNNNNN,...` and periodically imports the `id:` files of
//! the other instances' queues. symex is one more instance (`DIR/symex/queue/`): what it solves AFL++
//! picks up, and what AFL++ finds symex runs and expands (Driller's, QSYM's and SymCC's arrangement).

use rustc_hash::FxHashSet;
use std::path::{Path, PathBuf};

/// The instance name symex uses in the sync directory.
pub const INSTANCE: &str = "symex";

/// symex's view of an AFL++ sync directory.
pub struct AflSync {
    dir: PathBuf,
    queue: PathBuf,
    next_id: u64,
    imported: FxHashSet<PathBuf>,
}

impl AflSync {
    /// Opens (creating `DIR/symex/queue`) the sync directory `dir`.
    pub fn open(dir: &Path) -> std::io::Result<AflSync> {
        let queue = dir.join(INSTANCE).join("queue");
        std::fs::create_dir_all(&queue)?;
        Ok(AflSync {
            dir: dir.to_path_buf(),
            queue,
            next_id: 0,
            imported: FxHashSet::default(),
        })
    }

    /// Adds an input to symex's queue under AFL++'s naming (`id:NNNNNN,src:symex`, plus `+cov` when it
    /// covered new blocks, as AFL++ marks its own finds).
    pub fn publish(&mut self, bytes: &[u8], new_coverage: bool) -> std::io::Result<PathBuf> {
        let name = format!(
            "id:{:06},src:{INSTANCE}{}",
            self.next_id,
            if new_coverage { ",+cov" } else { "" }
        );
        self.next_id += 1;
        let p = self.queue.join(name);
        std::fs::write(&p, bytes)?;
        Ok(p)
    }

    /// The `id:` files of the other instances' queues not imported before, in name order.
    pub fn import(&mut self) -> Vec<Vec<u8>> {
        let mut found: Vec<PathBuf> = Vec::new();
        let Ok(instances) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        for inst in instances.filter_map(|e| e.ok()) {
            if inst.file_name() == INSTANCE {
                continue;
            }
            let Ok(files) = std::fs::read_dir(inst.path().join("queue")) else {
                continue;
            };
            for f in files.filter_map(|e| e.ok()) {
                let p = f.path();
                let is_input = f.file_name().to_string_lossy().starts_with("id:") && p.is_file();
                if is_input && !self.imported.contains(&p) {
                    found.push(p);
                }
            }
        }
        found.sort();
        let mut out = Vec::new();
        for p in found {
            // A file AFL++ is still writing may be read short; AFL++ writes queue entries at once.
            if let Ok(b) = std::fs::read(&p) {
                out.push(b);
                self.imported.insert(p);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_other_instances_queues_once_and_skips_its_own() {
        let d = tempfile::tempdir().unwrap();
        let mut s = AflSync::open(d.path()).unwrap();
        let afl = d.path().join("main").join("queue");
        std::fs::create_dir_all(afl.join(".state")).unwrap();
        std::fs::write(afl.join("id:000000,time:0,execs:0,orig:seed"), b"good").unwrap();
        std::fs::write(afl.join("README.txt"), b"not an input").unwrap();
        s.publish(b"mine", true).unwrap();
        assert_eq!(s.import(), vec![b"good".to_vec()]);
        assert!(s.import().is_empty());
        std::fs::write(afl.join("id:000001,src:000000,op:havoc"), b"bad!").unwrap();
        assert_eq!(s.import(), vec![b"bad!".to_vec()]);
        let own: Vec<_> = std::fs::read_dir(d.path().join("symex/queue"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(own, vec!["id:000000,src:symex,+cov".to_string()]);
    }
}
