//! Fuzz campaigns: SAGE's scored work list shared by `symex fuzz` processes (the lecture's note: "only
//! workList and the overall block coverage need to be shared").
//!
//! Under the same `symex:campaign:NAME:*` keys as a `run` campaign (`kind` = `fuzz`):
//!
//! * `queue`, a sorted set of item numbers: the score is SAGE's `Score` (blocks the input covered
//!   first) times 2³², plus the item's age reversed, so that `ZPOPMAX` is `PickFirstItem`: the highest
//!   score, the oldest of that score. `items` holds each item's input, bound and key.
//! * `claimed`, a sorted set of the items taken and not ended, scored by their deadline (the server's
//!   clock plus the claim time); `owner` names the worker of each. A working worker pushes its
//!   deadline on a few times a second; a waiting worker takes an item whose deadline passed (its
//!   worker was killed) before any other, as `XAUTOCLAIM` does for `run`.
//! * `seen` (the inputs run), `covered` (blocks), `crashes` (one record per distinct crash key),
//!   `totals`.
//!
//! An item is ended in one Lua script that first checks the worker still owns it: the children go to
//! the queue (unless the campaign ran their input before), the runs to `seen`, the new blocks and
//! crashes to theirs. A killed worker's item is expanded again by another worker; nothing it ran
//! under the item was recorded. The campaign is over when the queue is empty and nothing is claimed.

use crate::{campaign_keys, connect, text, with_now, JoinError, Keys, Link, BEAT, POLL};
use redis::{Script, Value};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use symex_fuzz::campaign::{Finished, SharedWorkList, Taken};

/// The score of a seed: above any block count, so that the seeds are expanded first.
const SEED_SCORE: u64 = 1 << 20;

/// Creates the campaign with its seeds as items, or checks the program's hash; numbers the worker.
const JOIN: &str = r#"
local h = redis.call('GET', KEYS[1])
if not h then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[2], 'fuzz')
  for k = 1, tonumber(ARGV[2]) do
    local id = redis.call('INCR', KEYS[5])
    local z = tonumber(ARGV[3]) * 4294967296 + (4294967295 - id)
    redis.call('HSET', KEYS[4], id, '0\t0\t' .. ARGV[3 + k] .. '\t' .. string.format('%.0f', z))
    redis.call('ZADD', KEYS[3], string.format('%.0f', z), id)
  end
elseif h ~= ARGV[1] then
  return {'differs', h}
end
return {'ok', tostring(redis.call('INCR', KEYS[6]))}
"#;

/// An item for worker ARGV[1]: first one whose deadline passed, else the queue's best; claimed until
/// now + ARGV[2] ms. Returns the item and the campaign's coverage, or 'over', or 'wait'.
const TAKE: &str = r#"
redis.call('ZADD', KEYS[6], now, ARGV[1])
local id = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1)[1]
if not id then
  local top = redis.call('ZPOPMAX', KEYS[1])
  id = top[1]
end
if id then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), id)
  redis.call('HSET', KEYS[4], id, ARGV[1])
  redis.call('ZREM', KEYS[7], ARGV[1])
  return {'item', id, redis.call('HGET', KEYS[3], id), redis.call('SMEMBERS', KEYS[5])}
end
if redis.call('ZCARD', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[7], ARGV[1])
  redis.call('ZREM', KEYS[6], ARGV[1])
  return {'over'}
end
redis.call('ZADD', KEYS[7], now, ARGV[1])
return {'wait'}
"#;

/// Pushes the deadline of item ARGV[2] on when worker ARGV[1] still owns it (1), else 0.
const BEAT_SCRIPT: &str = r#"
redis.call('ZADD', KEYS[3], now, ARGV[1])
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
return 1
"#;

/// Ends item ARGV[2] of worker ARGV[1] (when it still owns it): queues the children the campaign did
/// not run before, records the runs, blocks and crashes. Returns {1, the children's numbers (0: a
/// duplicate)} or {0}.
const COMMIT: &str = r#"
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[1] then return {0} end
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
local out = {1}
local i = 3
local n = tonumber(ARGV[i]); i = i + 1
local queued = 0
for k = 1, n do
  local score, bound, input = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  i = i + 3
  if redis.call('SISMEMBER', KEYS[5], input) == 1 then
    out[#out + 1] = 0
    redis.call('HINCRBY', KEYS[8], 'duplicates', 1)
  else
    local id = redis.call('INCR', KEYS[9])
    local z = tonumber(score) * 4294967296 + (4294967295 - id)
    redis.call('HSET', KEYS[3], id, '1\t' .. bound .. '\t' .. input .. '\t' .. string.format('%.0f', z))
    redis.call('ZADD', KEYS[4], string.format('%.0f', z), id)
    out[#out + 1] = id
    queued = queued + 1
  end
end
n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do redis.call('SADD', KEYS[5], ARGV[i]); i = i + 1 end
redis.call('HINCRBY', KEYS[8], 'runs', n)
n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do redis.call('SADD', KEYS[6], ARGV[i]); i = i + 1 end
n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do
  redis.call('HSETNX', KEYS[7], ARGV[i], ARGV[i + 1]); i = i + 2
end
redis.call('HINCRBY', KEYS[8], 'items_done', 1)
redis.call('HINCRBY', KEYS[8], 'children', queued)
return out
"#;

/// Gives item ARGV[2] of worker ARGV[1] back to the queue with its key.
const RELEASE: &str = r#"
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
local z = string.match(redis.call('HGET', KEYS[3], ARGV[2]) or '', '([^\t]+)$')
if z then redis.call('ZADD', KEYS[4], z, ARGV[2]) end
return 1
"#;

/// What a fuzz worker holds.
#[derive(Default)]
struct Held {
    item: Option<u64>,
    last_beat: Option<Instant>,
    error: Option<String>,
}

/// One worker of a fuzz campaign.
pub struct FuzzWorker {
    keys: Keys,
    /// This worker's name in the campaign (`w1`, `w2`, ...).
    pub name: String,
    claim_after: Duration,
    link: Mutex<Link>,
    held: Mutex<Held>,
    take: Script,
    beat: Script,
    commit: Script,
    release: Script,
}

impl FuzzWorker {
    /// Joins fuzz campaign `name` at `url` for the program (and options, and seeds) of hash
    /// `program`, creating it with `seeds` when it does not exist.
    pub fn join(
        url: &str,
        name: &str,
        program: &str,
        seeds: &[Vec<u8>],
        claim_after: Duration,
    ) -> Result<FuzzWorker, JoinError> {
        let mut link = connect(url).map_err(JoinError::Redis)?;
        let keys = campaign_keys(name);
        let join = Script::new(JOIN);
        let (status, value): (String, String) = link
            .run(|c| {
                let mut inv = join.prepare_invoke();
                for k in ["program", "kind", "queue", "items", "next", "workers"] {
                    inv.key(keys.key(k));
                }
                inv.arg(program).arg(seeds.len()).arg(SEED_SCORE);
                for s in seeds {
                    inv.arg(hex(s));
                }
                inv.invoke(c)
            })
            .map_err(JoinError::Redis)?;
        if status == "differs" {
            return Err(JoinError::OtherProgram(value));
        }
        Ok(FuzzWorker {
            keys,
            name: format!("w{value}"),
            claim_after,
            link: Mutex::new(link),
            held: Mutex::default(),
            take: with_now(TAKE),
            beat: with_now(BEAT_SCRIPT),
            commit: Script::new(COMMIT),
            release: Script::new(RELEASE),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn link(&self) -> std::sync::MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The error that ended this worker's part (the server went away for good).
    pub fn error(&self) -> Option<String> {
        self.held().error.clone()
    }

    fn claim_ms(&self) -> String {
        self.claim_after.as_millis().max(1).to_string()
    }

    fn fail(&self, e: String) -> Option<Taken> {
        self.held().error = Some(e);
        None
    }
}

impl SharedWorkList for FuzzWorker {
    fn take(&self) -> Option<Taken> {
        loop {
            if self.held().error.is_some() {
                return None;
            }
            let claim = self.claim_ms();
            let r: Result<Value, String> = self.link().run(|c| {
                let mut inv = self.take.prepare_invoke();
                for k in [
                    "queue", "claimed", "items", "owner", "covered", "alive", "idle",
                ] {
                    inv.key(self.keys.key(k));
                }
                inv.arg(&self.name).arg(&claim).invoke(c)
            });
            let v = match r {
                Ok(Value::Array(v)) => v,
                Ok(_) => return self.fail("Redis: an unexpected answer to take".into()),
                Err(e) => return self.fail(e),
            };
            match v.first().and_then(text).as_deref() {
                Some("item") => match taken(&v) {
                    Some(t) => {
                        let mut held = self.held();
                        held.item = Some(t.id);
                        held.last_beat = Some(Instant::now());
                        return Some(t);
                    }
                    None => return self.fail("Redis: a fuzz work item is malformed".into()),
                },
                Some("over") => return None,
                _ => std::thread::sleep(POLL),
            }
        }
    }

    fn commit(&self, id: u64, done: &Finished) -> Option<Vec<Option<u64>>> {
        self.held().item = None;
        let mut inv = self.commit.prepare_invoke();
        for k in [
            "claimed", "owner", "items", "queue", "seen", "covered", "crashes", "totals", "next",
        ] {
            inv.key(self.keys.key(k));
        }
        inv.arg(&self.name).arg(id).arg(done.children.len());
        for c in &done.children {
            inv.arg(c.score.min(SEED_SCORE as usize - 1))
                .arg(c.bound)
                .arg(hex(&c.bytes));
        }
        inv.arg(done.runs.len());
        for r in &done.runs {
            inv.arg(hex(r));
        }
        inv.arg(done.blocks.len());
        for (f, b) in &done.blocks {
            inv.arg(format!("{f}.{b}"));
        }
        inv.arg(done.crashes.len());
        for c in &done.crashes {
            inv.arg(&c.key)
                .arg(format!("{}\t{}\t{}", self.name, c.what, hex(&c.bytes)));
        }
        let r: Result<Vec<u64>, String> = self.link().run(|c| inv.invoke(c));
        match r {
            Ok(v) if v.first() == Some(&1) => {
                Some(v[1..].iter().map(|&id| (id != 0).then_some(id)).collect())
            }
            Ok(_) => None,
            Err(e) => {
                self.held().error = Some(e);
                None
            }
        }
    }

    fn release(&self, id: u64) {
        self.held().item = None;
        let r: Result<i64, String> = self.link().run(|c| {
            self.release
                .key(self.keys.key("claimed"))
                .key(self.keys.key("owner"))
                .key(self.keys.key("items"))
                .key(self.keys.key("queue"))
                .arg(&self.name)
                .arg(id)
                .invoke(c)
        });
        if let Err(e) = r {
            self.held().error = Some(e);
        }
    }

    fn beat(&self) {
        let mut held = self.held();
        let Some(id) = held.item else { return };
        if held.last_beat.is_some_and(|t| t.elapsed() < BEAT) {
            return;
        }
        held.last_beat = Some(Instant::now());
        let claim = self.claim_ms();
        let r: Result<i64, String> = self.link().run(|c| {
            self.beat
                .key(self.keys.key("claimed"))
                .key(self.keys.key("owner"))
                .key(self.keys.key("alive"))
                .arg(&self.name)
                .arg(id)
                .arg(&claim)
                .invoke(c)
        });
        if let Err(e) = r {
            held.error = Some(e);
        }
    }
}

/// `{'item', id, "run\tbound\thex\tkey", covered}` as a taken item.
fn taken(v: &[Value]) -> Option<Taken> {
    let id: u64 = text(v.get(1)?)?.parse().ok()?;
    let data = text(v.get(2)?)?;
    let mut f = data.split('\t');
    let run = f.next()? == "1";
    let bound = f.next()?.parse().ok()?;
    let bytes = unhex(f.next()?)?;
    let Value::Array(blocks) = v.get(3)? else {
        return None;
    };
    let covered = blocks.iter().filter_map(|b| block(&text(b)?)).collect();
    Some(Taken {
        id,
        bytes,
        bound,
        run,
        covered,
    })
}

/// A block `F.B` as (function, block).
pub(crate) fn block(s: &str) -> Option<(u32, u32)> {
    let (f, b) = s.split_once('.')?;
    Some((f.parse().ok()?, b.parse().ok()?))
}

/// Bytes as lowercase hexadecimal (how the campaign stores inputs).
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The bytes of a hexadecimal string.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A distinct crash a fuzz campaign recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrashEntry {
    pub worker: String,
    /// Kind, location and message.
    pub what: String,
    pub input: Vec<u8>,
}

/// The distinct crashes of campaign `name`, ordered by worker and description.
pub fn crashes(url: &str, name: &str) -> Result<Vec<CrashEntry>, String> {
    let mut link = connect(url)?;
    let k = campaign_keys(name);
    let all: std::collections::HashMap<String, String> =
        link.run(|c| redis::cmd("HGETALL").arg(k.key("crashes")).query(c))?;
    let mut out: Vec<CrashEntry> = all
        .values()
        .map(|r| {
            let mut f = r.splitn(3, '\t');
            let (worker, what, input) = (f.next()?, f.next()?, f.next()?);
            Some(CrashEntry {
                worker: worker.into(),
                what: what.into(),
                input: unhex(input)?,
            })
        })
        .collect::<Option<_>>()
        .ok_or("Redis: a malformed crash record")?;
    out.sort_by(|a, b| (&a.what, &a.worker).cmp(&(&b.what, &b.worker)));
    Ok(out)
}

/// The inputs campaign `name` ran (each once), sorted.
pub fn inputs(url: &str, name: &str) -> Result<Vec<Vec<u8>>, String> {
    let mut link = connect(url)?;
    let k = campaign_keys(name);
    let v: Vec<String> = link.run(|c| redis::cmd("SMEMBERS").arg(k.key("seen")).query(c))?;
    let mut out: Vec<Vec<u8>> = v
        .iter()
        .map(|s| unhex(s))
        .collect::<Option<_>>()
        .ok_or("Redis: a malformed input")?;
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_read_back_from_hex() {
        for b in [&b""[..], b"bad!", &[0, 255, 16, 1]] {
            assert_eq!(unhex(&hex(b)).as_deref(), Some(b));
        }
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
        assert_eq!(block("3.14"), Some((3, 14)));
    }
}
