//! Campaigns over Redis: one exploration shared by `symex run` processes on any machines (SAGE's
//! "only workList and the overall block coverage need to be shared", Cloud9's cluster of workers).
//!
//! Everything a campaign shares lives under the keys `symex:campaign:NAME:*` of one Redis server:
//!
//! * `work`, a stream read through the consumer group `workers`: each entry is a batch of live states,
//!   each as its path signature ([`WorkItem`]). A worker takes an entry (`XREADGROUP`), explores the
//!   subtrees under its states and acknowledges it (`XACK`); an entry a worker took and did not acknowledge within the claim
//!   time is taken back by another worker (`XAUTOCLAIM`), so a killed worker loses nothing.
//! * `inflight`, the number of entries added and not acknowledged: the campaign is over at 0.
//! * `paths` (one record per finished path), `totals` (counters), `covered` (the blocks covered).
//! * `program`, the hash of the program and the options that change its paths: a worker of another
//!   program refuses to join.
//!
//! A worker ends the item it holds atomically (one Lua script): it acknowledges the item, adds the
//! live states it gives away as new entries and records the paths it finished under the item. An
//! item is thus replaced by its unexplored subtrees and its paths in one step; a worker that dies
//! before it leaves the item pending, its paths unrecorded (the files it wrote are orphans), and the
//! worker that claims the item explores the subtree again. Every path is recorded once.

use redis::{Client, Connection, RedisError, Script, Value};
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use symex_explore::parallel::{Share, WorkItem, WorkList};
use symex_explore::PathSignature;

pub mod fuzz;

type Covered = rustc_hash::FxHashSet<(u32, u32)>;

/// How long a connection attempt may take: an unreachable server is an error within seconds.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a worker keeps reconnecting to a server that went away (a restart) before giving up.
const RECONNECT_FOR: Duration = Duration::from_secs(30);
/// How long a waiting worker sleeps between two looks at the stream.
pub(crate) const POLL: Duration = Duration::from_millis(100);
/// How often a working worker tells the campaign it still holds its item, and looks for idle workers.
pub(crate) const BEAT: Duration = Duration::from_millis(250);
/// A worker counts as waiting for work while it looked at the stream this recently.
const IDLE_WINDOW_MS: u64 = 2000;

/// The keys of campaign `name`.
pub(crate) struct Keys {
    prefix: String,
}

impl Keys {
    pub(crate) fn key(&self, k: &str) -> String {
        format!("{}:{k}", self.prefix)
    }
}

const GROUP: &str = "workers";

/// The server's clock in ms, as `now`: one clock for the workers of every machine.
const NOW: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"#;

/// A script that starts by reading the server's clock into `now`.
pub(crate) fn with_now(body: &str) -> Script {
    Script::new(&format!("{NOW}{body}"))
}

/// Creates the campaign on first use (its program hash, the stream and group, one entry per initial
/// state) or checks the hash; then numbers the worker.
const JOIN: &str = r#"
local h = redis.call('GET', KEYS[1])
if not h then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('XGROUP', 'CREATE', KEYS[2], 'workers', '0', 'MKSTREAM')
  local roots = tonumber(ARGV[2])
  for r = 0, roots - 1 do
    redis.call('XADD', KEYS[2], '*', 'sig', r .. ':', 'steps', '0', 'depth', '0')
  end
  redis.call('SET', KEYS[3], roots)
elseif h ~= ARGV[1] then
  return {'differs', h}
end
return {'ok', tostring(redis.call('INCR', KEYS[4]))}
"#;

/// An item for worker ARGV[1]: one claimed back from a worker silent for ARGV[2] ms, else a new one;
/// else 'over' (nothing in flight) or 'wait' (the worker is marked idle now). Marks the worker alive.
const TAKE: &str = r#"
redis.call('ZADD', KEYS[4], now, ARGV[1])
local c = redis.call('XAUTOCLAIM', KEYS[1], 'workers', ARGV[1], ARGV[2], '0-0', 'COUNT', 1)
local e = c[2][1]
if not e then
  local r = redis.call('XREADGROUP', 'GROUP', 'workers', ARGV[1], 'COUNT', 1, 'STREAMS', KEYS[1], '>')
  if r then e = r[1][2][1] end
end
if e then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return e
end
if tonumber(redis.call('GET', KEYS[2]) or '0') == 0 then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
  return 'over'
end
redis.call('ZADD', KEYS[3], now, ARGV[1])
return 'wait'
"#;

/// Ends item ARGV[2] of worker ARGV[1] when the worker still holds it: acknowledges it, adds the
/// states given away, records the paths and coverage, adds to the totals. 0 when another worker
/// claimed the item meanwhile (its results are then that worker's to record).
const COMMIT: &str = r#"
local p = redis.call('XPENDING', KEYS[1], 'workers', ARGV[2], ARGV[2], 1)
if (not p[1]) or p[1][2] ~= ARGV[1] then return 0 end
redis.call('XACK', KEYS[1], 'workers', ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
local i = 3
local n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do
  redis.call('XADD', KEYS[1], '*', 'sig', ARGV[i], 'steps', ARGV[i + 1], 'depth', ARGV[i + 2])
  i = i + 3
end
redis.call('INCRBY', KEYS[2], n - 1)
n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do redis.call('RPUSH', KEYS[3], ARGV[i]); i = i + 1 end
n = tonumber(ARGV[i]); i = i + 1
for k = 1, n do redis.call('SADD', KEYS[5], ARGV[i]); i = i + 1 end
while i <= #ARGV do
  redis.call('HINCRBY', KEYS[4], ARGV[i], ARGV[i + 1]); i = i + 2
end
return 1
"#;

/// Resets the idle time of item ARGV[2] when worker ARGV[1] still holds it (1), else 0; and counts
/// the workers that looked for work in the last ARGV[3] ms. Marks the worker alive.
const BEAT_SCRIPT: &str = r#"
redis.call('ZADD', KEYS[3], now, ARGV[1])
local held = 0
local p = redis.call('XPENDING', KEYS[1], 'workers', ARGV[2], ARGV[2], 1)
if p[1] and p[1][2] == ARGV[1] then
  redis.call('XCLAIM', KEYS[1], 'workers', ARGV[1], 0, ARGV[2], 'JUSTID')
  held = 1
end
return {held, redis.call('ZCOUNT', KEYS[2], now - tonumber(ARGV[3]), '+inf')}
"#;

/// A finished path as the campaign records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRecord {
    pub signature: String,
    pub worker: String,
    /// The test file the worker wrote (on the worker's machine), if any.
    pub test: Option<String>,
    /// `completed`, `error`, `cut`, ...
    pub end: String,
}

impl PathRecord {
    fn encode(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.signature,
            self.worker,
            self.end,
            self.test.as_deref().unwrap_or("")
        )
    }

    fn decode(s: &str) -> Option<PathRecord> {
        let mut f = s.splitn(4, '\t');
        let (signature, worker, end, test) = (f.next()?, f.next()?, f.next()?, f.next()?);
        Some(PathRecord {
            signature: signature.into(),
            worker: worker.into(),
            end: end.into(),
            test: (!test.is_empty()).then(|| test.into()),
        })
    }
}

/// A connection that reconnects (for [`RECONNECT_FOR`]) when the server goes away.
pub(crate) struct Link {
    client: Client,
    con: Connection,
}

/// Connects to `url`, failing within [`CONNECT_TIMEOUT`].
pub(crate) fn connect(url: &str) -> Result<Link, String> {
    let client = Client::open(url).map_err(|e| format!("--redis {url}: {e}"))?;
    let con = open(&client).map_err(|e| format!("cannot reach the Redis server at {url}: {e}"))?;
    Ok(Link { client, con })
}

fn open(client: &Client) -> Result<Connection, RedisError> {
    let con = client.get_connection_with_timeout(CONNECT_TIMEOUT)?;
    // A server that accepts and never answers must not hang the worker.
    con.set_read_timeout(Some(Duration::from_secs(30)))?;
    con.set_write_timeout(Some(Duration::from_secs(30)))?;
    Ok(con)
}

impl Link {
    /// Runs `f`, reconnecting and retrying while the server is away (a restart with its
    /// append-only file loses nothing acknowledged; every script is safe to run again).
    pub(crate) fn run<T>(
        &mut self,
        mut f: impl FnMut(&mut Connection) -> Result<T, RedisError>,
    ) -> Result<T, String> {
        let start = Instant::now();
        loop {
            match f(&mut self.con) {
                Ok(v) => return Ok(v),
                Err(e) if lost_connection(&e) && start.elapsed() < RECONNECT_FOR => {
                    std::thread::sleep(POLL * 2);
                    if let Ok(c) = open(&self.client) {
                        self.con = c;
                    }
                }
                Err(e) => return Err(format!("Redis: {e}")),
            }
        }
    }
}

fn lost_connection(e: &RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || e.kind() == redis::ErrorKind::BusyLoadingError
}

/// What a worker holds between two commits.
#[derive(Default)]
struct Held {
    /// The stream id of the item it explores.
    item: Option<String>,
    /// The item's states not taken yet (an item is a batch of states).
    batch: VecDeque<WorkItem>,
    /// Paths finished under it.
    paths: Vec<PathRecord>,
    /// Blocks already sent to the campaign.
    sent: HashSet<(u32, u32)>,
    last_beat: Option<Instant>,
    /// Workers waiting at the last beat.
    idle_workers: u64,
    /// Paths this worker recorded in the campaign.
    committed: Vec<PathRecord>,
    /// Items another worker claimed from this one (it was too slow to beat).
    lost: u64,
    error: Option<String>,
}

/// One worker of a campaign.
pub struct Worker {
    keys: Keys,
    /// This worker's consumer name in the group (`w1`, `w2`, ...).
    pub name: String,
    claim_after: Duration,
    link: Mutex<Link>,
    held: Mutex<Held>,
    take: Script,
    commit: Script,
    beat: Script,
}

/// Why a worker cannot join.
#[derive(Debug)]
pub enum JoinError {
    /// The server cannot be reached or answered an error.
    Redis(String),
    /// The campaign explores another program (its hash).
    OtherProgram(String),
}

impl Worker {
    /// Joins campaign `name` at `url` for the program of hash `program` with `roots` initial states,
    /// creating the campaign when it does not exist. An item held `claim_after` without news from its
    /// worker goes to another.
    pub fn join(
        url: &str,
        name: &str,
        program: &str,
        roots: u32,
        claim_after: Duration,
    ) -> Result<Worker, JoinError> {
        let mut link = connect(url).map_err(JoinError::Redis)?;
        let keys = campaign_keys(name);
        let join = Script::new(JOIN);
        let (status, value): (String, String) = link
            .run(|c| {
                join.key(keys.key("program"))
                    .key(keys.key("work"))
                    .key(keys.key("inflight"))
                    .key(keys.key("workers"))
                    .arg(program)
                    .arg(roots)
                    .invoke(c)
            })
            .map_err(JoinError::Redis)?;
        if status == "differs" {
            return Err(JoinError::OtherProgram(value));
        }
        Ok(Worker {
            keys,
            name: format!("w{value}"),
            claim_after,
            link: Mutex::new(link),
            held: Mutex::default(),
            take: with_now(TAKE),
            commit: Script::new(COMMIT),
            beat: with_now(BEAT_SCRIPT),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn link(&self) -> std::sync::MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes a path finished under the item held (recorded at the item's end).
    pub fn record(&self, p: PathRecord) {
        self.held().paths.push(p);
    }

    /// The paths this worker recorded in the campaign.
    pub fn committed(&self) -> Vec<PathRecord> {
        self.held().committed.clone()
    }

    /// Items another worker took over from this one (their paths are that worker's).
    pub fn lost_items(&self) -> u64 {
        self.held().lost
    }

    /// The error that ended this worker's part (the server went away for good).
    pub fn error(&self) -> Option<String> {
        self.held().error.clone()
    }

    /// Ends the item held, replacing it by `items` and the item's states not taken yet, in one batch
    /// for each worker waiting and one for this worker.
    fn commit(&self, items: &[WorkItem], covered: &Covered) {
        let mut held = self.held();
        let Some(id) = held.item.take() else { return };
        let mut states = items.to_vec();
        states.extend(held.batch.drain(..));
        let batches = batches(states, held.idle_workers + 1);
        let new_blocks: Vec<(u32, u32)> = covered
            .iter()
            .filter(|b| !held.sent.contains(b))
            .copied()
            .collect();
        let paths = std::mem::take(&mut held.paths);
        let mut inv = self.commit.prepare_invoke();
        for k in ["work", "inflight", "paths", "totals", "covered"] {
            inv.key(self.keys.key(k));
        }
        inv.arg(&self.name).arg(&id).arg(batches.len());
        for b in &batches {
            let fields = batch_fields(b);
            inv.arg(&fields[0]).arg(&fields[1]).arg(&fields[2]);
        }
        inv.arg(paths.len());
        for p in &paths {
            inv.arg(p.encode());
        }
        inv.arg(new_blocks.len());
        for (f, b) in &new_blocks {
            inv.arg(format!("{f}.{b}"));
        }
        let tests = paths.iter().filter(|p| p.test.is_some()).count();
        inv.arg("paths").arg(paths.len()).arg("tests").arg(tests);
        for end in ["completed", "error", "cut"] {
            let n = paths.iter().filter(|p| p.end == end).count();
            inv.arg(end).arg(n);
        }
        inv.arg("items_done")
            .arg(1)
            .arg("items_given")
            .arg(batches.len());
        let r: Result<i64, String> = self.link().run(|c| inv.invoke(c));
        match r {
            Ok(1) => {
                held.sent.extend(new_blocks);
                held.committed.extend(paths);
            }
            Ok(_) => held.lost += 1,
            Err(e) => held.error = Some(e),
        }
    }

    /// Looks at the stream until an item comes, or nothing is in flight any more.
    fn next_item(&self) -> Option<VecDeque<WorkItem>> {
        loop {
            let claim = self.claim_after.as_millis().to_string();
            let r: Result<Value, String> = self.link().run(|c| {
                self.take
                    .key(self.keys.key("work"))
                    .key(self.keys.key("inflight"))
                    .key(self.keys.key("idle"))
                    .key(self.keys.key("alive"))
                    .arg(&self.name)
                    .arg(&claim)
                    .invoke(c)
            });
            let v = match r {
                Ok(v) => v,
                Err(e) => {
                    self.held().error = Some(e);
                    return None;
                }
            };
            match v {
                Value::Array(e) => match entry(&e) {
                    Some((id, item)) => {
                        let mut held = self.held();
                        held.item = Some(id);
                        held.last_beat = Some(Instant::now());
                        return Some(item);
                    }
                    None => {
                        self.held().error = Some("Redis: a work item is malformed".into());
                        return None;
                    }
                },
                v if text(&v).as_deref() == Some("over") => return None,
                _ => std::thread::sleep(POLL),
            }
        }
    }

    /// Adds the campaign's covered blocks to `covered` (and to those known to be sent).
    fn read_coverage(&self, covered: &mut Covered) {
        let k = self.keys.key("covered");
        let r: Result<Vec<String>, String> =
            self.link().run(|c| redis::cmd("SMEMBERS").arg(&k).query(c));
        match r {
            Ok(v) => {
                let mut held = self.held();
                for b in v.iter().filter_map(|s| fuzz::block(s)) {
                    covered.insert(b);
                    held.sent.insert(b);
                }
            }
            Err(e) => self.held().error = Some(e),
        }
    }

    /// Keeps the item held (resets its idle time) and counts the workers waiting, now and then.
    fn beat(&self) -> u64 {
        let mut held = self.held();
        let Some(id) = held.item.clone() else {
            return 0;
        };
        if held.last_beat.is_some_and(|t| t.elapsed() < BEAT) {
            return held.idle_workers;
        }
        held.last_beat = Some(Instant::now());
        let r: Result<(i64, u64), String> = self.link().run(|c| {
            self.beat
                .key(self.keys.key("work"))
                .key(self.keys.key("idle"))
                .key(self.keys.key("alive"))
                .arg(&self.name)
                .arg(&id)
                .arg(IDLE_WINDOW_MS)
                .invoke(c)
        });
        match r {
            Ok((_, idle)) => held.idle_workers = idle,
            Err(e) => held.error = Some(e),
        }
        held.idle_workers
    }
}

impl WorkList for Worker {
    /// The next state of the item held; when none is left, ends the item, takes the next and reads
    /// the campaign's coverage back into `covered`.
    fn take(&self, covered: &mut Covered) -> Option<WorkItem> {
        if let Some(next) = self.held().batch.pop_front() {
            return Some(next);
        }
        self.commit(&[], covered);
        if self.held().error.is_some() {
            return None;
        }
        let mut batch = self.next_item()?;
        self.read_coverage(covered);
        let first = batch.pop_front();
        self.held().batch = batch;
        first
    }

    /// Gives everything back while another worker waits: the stream then holds the subtrees for
    /// whichever worker reads first.
    fn share(&self) -> Share {
        match self.beat() > 0 {
            true => Share::All,
            false => Share::Keep,
        }
    }

    fn give(&self, items: Vec<WorkItem>, covered: &Covered) {
        self.commit(&items, covered);
    }

    /// At this worker's own limit the live states go back to the campaign; when one of them has no
    /// signature the item stays pending, for another worker to claim and explore again.
    fn hand_back(&self, items: Vec<Option<WorkItem>>, covered: &Covered) -> bool {
        let Some(items) = items.into_iter().collect::<Option<Vec<_>>>() else {
            let mut held = self.held();
            held.item = None;
            held.paths.clear();
            held.batch.clear();
            return true;
        };
        self.commit(&items, covered);
        true
    }

    fn stopped(&self) -> bool {
        self.held().error.is_some()
    }

    fn limit(&self) -> Option<String> {
        None
    }

    fn halt_at_limit(&self, _: String) {}
}

pub(crate) fn campaign_keys(name: &str) -> Keys {
    Keys {
        prefix: format!("symex:campaign:{name}"),
    }
}

pub(crate) fn text(v: &Value) -> Option<String> {
    match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Okay => Some("OK".into()),
        _ => None,
    }
}

/// A stream entry `[id, [field, value, ...]]` as the batch of work items it holds.
fn entry(e: &[Value]) -> Option<(String, VecDeque<WorkItem>)> {
    let id = text(e.first()?)?;
    let Value::Array(fields) = e.get(1)? else {
        return None;
    };
    let field = |name: &str| {
        fields
            .chunks(2)
            .find(|kv| text(&kv[0]).as_deref() == Some(name))
            .and_then(|kv| text(kv.get(1)?))
    };
    let batch = read_batch(&field("sig")?, &field("steps")?, &field("depth")?)?;
    Some((id, batch))
}

/// Splits `states` into at most `n` batches (one stream entry each), dealt in turn so that the
/// oldest states, the roots of the largest subtrees, go to different batches.
fn batches(states: Vec<WorkItem>, n: u64) -> Vec<Vec<WorkItem>> {
    let n = (n.max(1) as usize).min(states.len());
    let mut out: Vec<Vec<WorkItem>> = (0..n).map(|_| Vec::new()).collect();
    for (i, s) in states.into_iter().enumerate() {
        out[i % n].push(s);
    }
    out
}

/// A batch as the stream entry's `sig`, `steps` and `depth` fields: space-separated lists (a path
/// signature has no space).
fn batch_fields(b: &[WorkItem]) -> [String; 3] {
    let join = |f: &dyn Fn(&WorkItem) -> String| b.iter().map(f).collect::<Vec<_>>().join(" ");
    [
        join(&|it| it.sig.to_string()),
        join(&|it| it.steps.to_string()),
        join(&|it| it.depth.to_string()),
    ]
}

fn read_batch(sigs: &str, steps: &str, depths: &str) -> Option<VecDeque<WorkItem>> {
    let (sigs, steps, depths): (Vec<_>, Vec<_>, Vec<_>) = (
        sigs.split(' ').collect(),
        steps.split(' ').collect(),
        depths.split(' ').collect(),
    );
    if sigs.len() != steps.len() || sigs.len() != depths.len() {
        return None;
    }
    let mut batch = VecDeque::with_capacity(sigs.len());
    for ((sig, steps), depth) in sigs.iter().zip(&steps).zip(&depths) {
        batch.push_back(WorkItem {
            sig: sig.parse::<PathSignature>().ok()?,
            steps: steps.parse().ok()?,
            depth: depth.parse().ok()?,
            new_coverage: true,
            since_new_coverage: 0,
        });
    }
    Some(batch)
}

/// A campaign's progress, as `symex campaign status` shows it.
#[derive(Clone, Debug, Default)]
pub struct Status {
    pub exists: bool,
    /// `run` or `fuzz`.
    pub kind: String,
    pub program: String,
    /// Items not ended yet (the campaign is over at 0).
    pub in_flight: u64,
    /// Of those, taken by a worker.
    pub pending: u64,
    pub items_done: u64,
    pub workers_joined: u64,
    /// Workers that gave a sign of life within [`LIVE_WINDOW_MS`] and did not see the campaign end.
    pub workers_live: u64,
    pub workers_waiting: u64,
    pub paths: u64,
    pub tests: u64,
    pub completed: u64,
    pub errors: u64,
    pub cut: u64,
    pub blocks_covered: u64,
    /// A fuzz campaign's runs recorded (an input run twice counts twice), distinct inputs run,
    /// children not queued because the campaign had run their input, and distinct crashes.
    pub runs: u64,
    pub inputs: u64,
    pub duplicates: u64,
    pub crashes: u64,
}

/// A worker counts as live while its last sign of life (looking for work, or a heartbeat while it
/// explores, a few times a second between steps) is this recent. Longer than the heartbeat's period:
/// one solver query or one run may keep a worker from beating for seconds.
pub const LIVE_WINDOW_MS: u64 = 10_000;

/// Reads campaign `name`'s progress.
pub fn status(url: &str, name: &str) -> Result<Status, String> {
    let mut link = connect(url)?;
    let k = campaign_keys(name);
    let program: Option<String> = link.run(|c| redis::cmd("GET").arg(k.key("program")).query(c))?;
    let Some(program) = program else {
        return Ok(Status::default());
    };
    let kind: Option<String> = link.run(|c| redis::cmd("GET").arg(k.key("kind")).query(c))?;
    let kind = kind.unwrap_or_else(|| "run".into());
    let num = |link: &mut Link, cmd: &str, key: &str| -> Result<u64, String> {
        let v: Option<u64> = link.run(|c| redis::cmd(cmd).arg(k.key(key)).query(c))?;
        Ok(v.unwrap_or(0))
    };
    let (in_flight, pending) = match kind.as_str() {
        "fuzz" => {
            let claimed = num(&mut link, "ZCARD", "claimed")?;
            (num(&mut link, "ZCARD", "queue")? + claimed, claimed)
        }
        _ => (
            num(&mut link, "GET", "inflight")?,
            run_pending(&mut link, &k)?,
        ),
    };
    let workers_joined = num(&mut link, "GET", "workers")?;
    let (secs, micros): (u64, u64) = link.run(|c| redis::cmd("TIME").query(c))?;
    let now = secs * 1000 + micros / 1000;
    let count_since = |link: &mut Link, key: &str, window: u64| -> Result<u64, String> {
        link.run(|c| {
            redis::cmd("ZCOUNT")
                .arg(k.key(key))
                .arg(now.saturating_sub(window))
                .arg("+inf")
                .query(c)
        })
    };
    let workers_waiting = count_since(&mut link, "idle", IDLE_WINDOW_MS)?;
    let workers_live = count_since(&mut link, "alive", LIVE_WINDOW_MS)?;
    let totals: std::collections::HashMap<String, u64> =
        link.run(|c| redis::cmd("HGETALL").arg(k.key("totals")).query(c))?;
    let t = |f: &str| totals.get(f).copied().unwrap_or(0);
    Ok(Status {
        exists: true,
        kind,
        program,
        in_flight,
        pending,
        items_done: t("items_done"),
        workers_joined,
        workers_live,
        workers_waiting,
        paths: t("paths"),
        tests: t("tests"),
        completed: t("completed"),
        errors: t("error"),
        cut: t("cut"),
        blocks_covered: num(&mut link, "SCARD", "covered")?,
        runs: t("runs"),
        inputs: num(&mut link, "SCARD", "seen")?,
        duplicates: t("duplicates"),
        crashes: num(&mut link, "HLEN", "crashes")?,
    })
}

/// The entries of a `run` campaign's stream taken by a worker and not acknowledged.
fn run_pending(link: &mut Link, k: &Keys) -> Result<u64, String> {
    let pending: Value = link.run(|c| {
        redis::cmd("XPENDING")
            .arg(k.key("work"))
            .arg(GROUP)
            .query(c)
    })?;
    Ok(match &pending {
        Value::Array(v) => v.first().and_then(text).and_then(|s| s.parse().ok()),
        _ => None,
    }
    .unwrap_or(0))
}

/// Every path campaign `name` recorded, in the order recorded.
pub fn paths(url: &str, name: &str) -> Result<Vec<PathRecord>, String> {
    let mut link = connect(url)?;
    let k = campaign_keys(name);
    let lines: Vec<String> = link.run(|c| {
        redis::cmd("LRANGE")
            .arg(k.key("paths"))
            .arg(0)
            .arg(-1)
            .query(c)
    })?;
    lines
        .iter()
        .map(|l| {
            PathRecord::decode(l).ok_or_else(|| format!("Redis: a malformed path record `{l}`"))
        })
        .collect()
}

/// The blocks campaign `name` covered, as (function, block).
pub fn covered(url: &str, name: &str) -> Result<Vec<(u32, u32)>, String> {
    let mut link = connect(url)?;
    let k = campaign_keys(name);
    let v: Vec<String> = link.run(|c| redis::cmd("SMEMBERS").arg(k.key("covered")).query(c))?;
    let mut blocks: Vec<(u32, u32)> = v.iter().filter_map(|s| fuzz::block(s)).collect();
    blocks.sort_unstable();
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_records_read_back() {
        let p = PathRecord {
            signature: "0:10[2a]".into(),
            worker: "w3".into(),
            test: Some("/tmp/out/w3-test000001.json".into()),
            end: "completed".into(),
        };
        assert_eq!(PathRecord::decode(&p.encode()), Some(p.clone()));
        let q = PathRecord { test: None, ..p };
        assert_eq!(PathRecord::decode(&q.encode()), Some(q));
        assert_eq!(PathRecord::decode("0:1\tw1"), None);
    }

    fn item(sig: &str, steps: u64) -> WorkItem {
        WorkItem {
            sig: sig.parse().unwrap(),
            steps,
            depth: sig.len() as u32,
            new_coverage: true,
            since_new_coverage: 0,
        }
    }

    #[test]
    fn states_are_dealt_into_one_batch_per_worker_and_read_back() {
        let states: Vec<WorkItem> = ["0:1", "0:01", "0:001[2a]", "1:", "0:0001"]
            .iter()
            .enumerate()
            .map(|(i, s)| item(s, 10 * i as u64))
            .collect();
        let b = batches(states.clone(), 2);
        let sigs = |b: &[WorkItem]| b.iter().map(|i| i.sig.to_string()).collect::<Vec<_>>();
        assert_eq!(sigs(&b[0]), ["0:1", "0:001[2a]", "0:0001"]);
        assert_eq!(sigs(&b[1]), ["0:01", "1:"]);
        // Never more batches than states, never none for a state.
        assert_eq!(batches(states[..1].to_vec(), 3).len(), 1);
        assert!(batches(Vec::new(), 3).is_empty());
        let [sig, steps, depth] = batch_fields(&b[0]);
        let mut back = read_batch(&sig, &steps, &depth).unwrap();
        assert_eq!(sigs(back.make_contiguous()), sigs(&b[0]));
        let steps: Vec<u64> = back.iter().map(|i| i.steps).collect();
        assert_eq!(steps, [0, 20, 40]);
        // An entry of the first version (one state) still reads, a malformed one does not.
        assert_eq!(read_batch("3:", "0", "0").unwrap().len(), 1);
        assert!(read_batch("0:1 0:0", "1", "1 1").is_none());
    }
}
