//! Many cases of one game played at once by action numbers: the Python vector environment's
//! engine, plain Rust. Each sub-environment is a [`Driver`] (so it plays exactly what the single
//! environment plays for the same case and actions); a batch's steps run across a thread pool,
//! and every result is written into arrays the caller allocated once (numpy's, from Python),
//! each sub-environment's part at its index: nothing is allocated per step.
//!
//! Cases: [`VectorDriver::reset`] gives sub-environment `i` case seed `seeds[i]`; each later
//! game of it, started by the autoreset, plays the seed `envs` above its last (wrapping at
//! 2^64), so that a batch reset with seeds `s, s+1, ..., s+envs-1` plays the consecutive seeds
//! `s, s+1, s+2, ...`, each once, as `marathon play --seeds` numbers them. Or, with
//! [`VectorDriver::repeating_cases`], each sub-environment plays its reset's case again and
//! again (a copy, not dealt again: reversi's cases take a genetic algorithm to deal).
//!
//! Autoreset, in Gymnasium 1.x's terms: [`Autoreset::SameStep`] starts the next game in the
//! step that ended one (the ended game's last observation, score and seed go to the `last_*`
//! arrays), so every observation and mask returned belongs to a game in play; with
//! [`Autoreset::NextStep`] the step after the end starts the next game, ignores its action and
//! returns reward 0.

use rayon::prelude::*;

use marathon_core::space::{Buffer, Dtype, Field, Values};

use crate::driver::{self, Driver, NO_GAME};

/// When a sub-environment whose game ended starts its next one (Gymnasium's autoreset modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// In the step that ended the game.
    SameStep,
    /// In the step after, whose action is ignored.
    NextStep,
}

/// One batch's results, each array `envs` parts long (a sub-environment's part at its index):
/// the arrays a step or a reset writes.
pub struct Batch<'a> {
    /// The observation's fields, in the game's order: `envs * field.len()` elements each.
    pub observation: Vec<Values<'a>>,
    /// The allowed actions: `envs * actions` elements; empty when the vector environment lists
    /// them instead ([`VectorDriver::listing_legal`]).
    pub mask: &'a mut [i8],
    /// With [`VectorDriver::listing_legal`]`(width)`: each sub-environment's allowed action
    /// numbers, increasing, padded with -1 (`envs * width` elements; else empty)...
    pub legal: &'a mut [i32],
    /// ...and how many there are (`envs`; else empty). A count above `width` says the list
    /// holds only the first `width`.
    pub legal_count: &'a mut [i32],
    /// The score gained by the step (0 at a reset, and at a [`Autoreset::NextStep`] restart).
    pub reward: &'a mut [f64],
    /// The game ended in the step.
    pub terminated: &'a mut [bool],
    /// The rules refused the action, which ended the game (see
    /// [`VectorDriver::invalid_reason`]).
    pub invalid: &'a mut [bool],
    /// The contest's score so far of the game in play.
    pub score: &'a mut [f64],
    /// The case seed of the game in play.
    pub seed: &'a mut [u64],
    /// With [`Autoreset::SameStep`], where `terminated`: the ended game's last observation...
    pub last_observation: Vec<Values<'a>>,
    /// ...its final score (the contest's, the failure rule applied)...
    pub last_score: &'a mut [f64],
    /// ...and its case seed.
    pub last_seed: &'a mut [u64],
}

impl<'a> Batch<'a> {
    /// The first `envs` sub-environments' parts, taken off the front of every array.
    fn take_front(&mut self, envs: usize, ctx: &Context) -> Batch<'a> {
        let fields = ctx.fields;
        fn front<'a, T>(slice: &mut &'a mut [T], len: usize) -> &'a mut [T] {
            let (front, back) = std::mem::take(slice).split_at_mut(len);
            *slice = back;
            front
        }
        let values = |arrays: &mut Vec<Values<'a>>| {
            arrays
                .iter_mut()
                .zip(fields)
                .map(|(values, field)| values.take_front(envs * field.len()))
                .collect()
        };
        Batch {
            observation: values(&mut self.observation),
            mask: front(&mut self.mask, envs * ctx.mask_len()),
            legal: front(&mut self.legal, envs * ctx.legal_width()),
            legal_count: front(&mut self.legal_count, envs * ctx.lists() as usize),
            reward: front(&mut self.reward, envs),
            terminated: front(&mut self.terminated, envs),
            invalid: front(&mut self.invalid, envs),
            score: front(&mut self.score, envs),
            seed: front(&mut self.seed, envs),
            last_observation: values(&mut self.last_observation),
            last_score: front(&mut self.last_score, envs),
            last_seed: front(&mut self.last_seed, envs),
        }
    }

    /// Checks every array's length against `envs` sub-environments of a game.
    fn check(&self, envs: usize, ctx: &Context) -> Result<(), String> {
        let fields = ctx.fields;
        let mut lengths = vec![
            ("action_mask", self.mask.len(), envs * ctx.mask_len()),
            ("legal_actions", self.legal.len(), envs * ctx.legal_width()),
            (
                "legal_count",
                self.legal_count.len(),
                envs * ctx.lists() as usize,
            ),
            ("reward", self.reward.len(), envs),
            ("terminated", self.terminated.len(), envs),
            ("invalid", self.invalid.len(), envs),
            ("score", self.score.len(), envs),
            ("seed", self.seed.len(), envs),
            ("last_score", self.last_score.len(), envs),
            ("last_seed", self.last_seed.len(), envs),
        ];
        if self.observation.len() != fields.len() || self.last_observation.len() != fields.len() {
            return Err(format!(
                "{} observation arrays, not {}",
                self.observation.len(),
                fields.len()
            ));
        }
        for (field, (now, last)) in fields
            .iter()
            .zip(self.observation.iter().zip(&self.last_observation))
        {
            lengths.push((field.name, now.len(), envs * field.len()));
            lengths.push((field.name, last.len(), envs * field.len()));
        }
        match lengths.into_iter().find(|(_, len, want)| len != want) {
            Some((name, len, want)) => Err(format!("array {name}: {len} elements, not {want}")),
            None => Ok(()),
        }
    }

    /// Writes sub-environment `env`'s game in play (observation, mask or legal list, score,
    /// seed).
    fn write_now(&mut self, env: usize, slot: &Slot, ctx: &Context) {
        for (index, (values, field)) in self.observation.iter_mut().zip(ctx.fields).enumerate() {
            slot.driver
                .observe(index, &mut values.part(env * field.len(), field.len()));
        }
        match ctx.legal_width {
            None => slot
                .driver
                .action_mask(&mut self.mask[env * ctx.actions..(env + 1) * ctx.actions]),
            Some(width) => {
                let row = &mut self.legal[env * width..(env + 1) * width];
                let mut count = 0;
                slot.driver.for_each_allowed(&mut |index| {
                    if let Some(entry) = row.get_mut(count) {
                        // Below the space's size, which listing_legal checked fits an i32.
                        *entry = index as i32;
                    }
                    count += 1;
                });
                row[count.min(width)..].fill(-1);
                self.legal_count[env] = count as i32;
            }
        }
        self.score[env] = slot.driver.score();
        self.seed[env] = slot.seed;
    }

    /// Writes sub-environment `env`'s ended game into the `last_*` arrays.
    fn write_last(&mut self, env: usize, slot: &Slot, fields: &[Field]) {
        for (index, (values, field)) in self.last_observation.iter_mut().zip(fields).enumerate() {
            slot.driver
                .observe(index, &mut values.part(env * field.len(), field.len()));
        }
        self.last_score[env] = slot.driver.score();
        self.last_seed[env] = slot.seed;
    }
}

/// A sub-environment.
struct Slot {
    driver: Driver,
    /// The case seed of its game.
    seed: u64,
    /// With [`Autoreset::NextStep`]: its game ended, the next step starts the next.
    due: bool,
    /// Why the rules refused its last action, if they did.
    invalid: Option<String>,
}

/// Many cases of one game; see the module's doc.
pub struct VectorDriver {
    slots: Vec<Slot>,
    fields: &'static [Field],
    actions: usize,
    autoreset: Autoreset,
    /// The case group of every sub-environment (`None`: the game's default).
    group: Option<u32>,
    /// Each sub-environment's autoreset starts its case again (see
    /// [`VectorDriver::repeating_cases`]).
    repeat_cases: bool,
    /// `None` with one thread: the batch is stepped on the caller's.
    pool: Option<rayon::ThreadPool>,
    /// Sub-environments per task: a few tasks per thread, so that a thread whose games cost
    /// more is helped by the others.
    chunk: usize,
    /// Lists the allowed actions, this many at most, instead of the mask.
    legal_width: Option<usize>,
}

/// The most threads a vector environment takes (as `marathon play --threads`).
pub const MAX_THREADS: usize = 1024;

impl VectorDriver {
    /// `envs` sub-environments of game `name` stepped by `threads` threads.
    pub fn new(
        name: &str,
        envs: usize,
        threads: usize,
        autoreset: Autoreset,
    ) -> Result<Self, String> {
        if envs == 0 {
            return Err("num_envs 0: a vector environment has at least one".into());
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("threads {threads}: expected 1 to {MAX_THREADS}"));
        }
        let first = driver::driver(name).ok_or_else(|| {
            format!(
                "no game {name:?}: the games are {}",
                driver::games().join(", ")
            )
        })?;
        let (fields, actions) = (first.fields(), first.actions());
        let slots = std::iter::once(first)
            .chain((1..envs).map(|_| driver::driver(name).expect("found once")))
            .map(|driver| Slot {
                driver,
                seed: 0,
                due: false,
                invalid: None,
            })
            .collect();
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("marathon-vector-{i}"))
                .build()
                .map_err(|e| format!("threads {threads}: {e}"))?;
            Some(pool)
        } else {
            None
        };
        Ok(VectorDriver {
            slots,
            fields,
            actions,
            autoreset,
            group: None,
            repeat_cases: false,
            pool,
            chunk: envs.div_ceil(threads * 4).max(1),
            legal_width: None,
        })
    }

    /// With `Some(width)`, every batch lists each sub-environment's allowed actions (at most
    /// `width` of them, and their count) instead of writing its mask: the compact form for
    /// large sparse masks (linez: 6,561 actions, at most 1,640 of them legal: 40 balls times
    /// 41 empty cells). An error for a width of 0 or above the action space.
    pub fn listing_legal(mut self, width: Option<usize>) -> Result<Self, String> {
        if i32::try_from(self.actions).is_err() {
            return Err(format!(
                "{} actions do not fit the lists' int32",
                self.actions
            ));
        }
        if let Some(width) = width
            && !(1..=self.actions).contains(&width)
        {
            return Err(format!(
                "legal_actions {width}: expected 1 to the action space's size {}",
                self.actions
            ));
        }
        self.legal_width = width;
        Ok(self)
    }

    /// The width of the legal lists, if the batches list the allowed actions.
    pub fn legal_width(&self) -> Option<usize> {
        self.legal_width
    }

    /// With `repeat`, each sub-environment's autoreset starts the case it played again (a
    /// copy: nothing is dealt again) instead of the seed `envs` above: a fixed set of cases to
    /// train on, the reset's seeds (a seed given several times is dealt once).
    pub fn repeating_cases(mut self, repeat: bool) -> Self {
        self.repeat_cases = repeat;
        self
    }

    /// The number of sub-environments.
    pub fn envs(&self) -> usize {
        self.slots.len()
    }

    /// The size of a sub-environment's action space.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// The observation's arrays of one sub-environment.
    pub fn fields(&self) -> &'static [Field] {
        self.fields
    }

    /// The autoreset mode.
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    /// The sub-environment `env`'s driver (its game in play), if `env` is one.
    pub fn driver(&self, env: usize) -> Option<&Driver> {
        self.slots.get(env).map(|slot| &slot.driver)
    }

    /// Why the rules refused sub-environment `env`'s action in the last step, if they did.
    pub fn invalid_reason(&self, env: usize) -> Option<&str> {
        self.slots.get(env)?.invalid.as_deref()
    }

    /// Starts case `seeds[i]` (in `group`, or the game's default group) in every
    /// sub-environment `i`, and writes their observations, masks, scores and seeds into `out`
    /// (rewards 0, nothing terminated). An error changes nothing.
    pub fn reset(
        &mut self,
        seeds: &[u64],
        group: Option<u32>,
        out: Batch<'_>,
    ) -> Result<(), String> {
        if seeds.len() != self.envs() {
            return Err(format!(
                "{} seeds for {} environments",
                seeds.len(),
                self.envs()
            ));
        }
        out.check(self.envs(), &self.context())?;
        // A bad group is the same error for every case: found before anything changes.
        let game = marathon_games::find(self.slots[0].driver.name()).expect("registered");
        marathon_games::seed_case(game, 0, group)?;
        self.group = group;
        // Each case is dealt once (a reversi case takes a genetic algorithm), in parallel; a
        // seed given again starts a copy of its first sub-environment's case.
        let mut firsts = std::collections::HashMap::new();
        let first: Vec<usize> = (0..seeds.len())
            .map(|env| *firsts.entry(seeds[env]).or_insert(env))
            .collect();
        let dealt = |(env, slot): (usize, &mut Slot)| -> Result<(), String> {
            slot.seed = seeds[env];
            slot.due = false;
            slot.invalid = None;
            if first[env] == env {
                slot.driver.reset(seeds[env], group)?;
            }
            Ok(())
        };
        match &self.pool {
            None => self.slots.iter_mut().enumerate().try_for_each(dealt)?,
            Some(pool) => {
                pool.install(|| self.slots.par_iter_mut().enumerate().try_for_each(dealt))?
            }
        }
        for env in 0..self.slots.len() {
            if first[env] != env {
                let (before, after) = self.slots.split_at_mut(env);
                after[0].driver.reset_as(&before[first[env]].driver);
            }
        }
        self.run(seeds, out, |slot, _, out, env, ctx| {
            out.reward[env] = 0.0;
            out.terminated[env] = false;
            out.invalid[env] = false;
            out.write_now(env, slot, ctx);
            Ok(())
        })
    }

    /// Plays `actions[i]` in every sub-environment `i` and writes the results into `out`. An
    /// action number outside the space, or a step before the first reset, is an error that
    /// changes nothing; an action the rules refuse ends that sub-environment's game as the judge
    /// would (`invalid`), with the contest's failure score.
    pub fn step(&mut self, actions: &[i64], out: Batch<'_>) -> Result<(), String> {
        if actions.len() != self.envs() {
            return Err(format!(
                "{} actions for {} environments",
                actions.len(),
                self.envs()
            ));
        }
        out.check(self.envs(), &self.context())?;
        if let Some((env, &action)) = actions
            .iter()
            .enumerate()
            .find(|&(_, &action)| !(0..self.actions as i64).contains(&action))
        {
            return Err(format!(
                "actions[{env}] = {action} is outside the action space 0..{}",
                self.actions
            ));
        }
        if self.slots.iter().any(|slot| !slot.driver.started()) {
            return Err(NO_GAME.into());
        }
        self.run(actions, out, |slot, &action, out, env, ctx| {
            slot.invalid = None;
            if slot.due {
                // Next-step autoreset: this step starts the next game.
                slot.due = false;
                slot.seed = ctx.next_seed(slot.seed);
                slot.driver.reset(slot.seed, ctx.group)?;
                out.reward[env] = 0.0;
                out.terminated[env] = false;
                out.invalid[env] = false;
                out.write_now(env, slot, ctx);
                return Ok(());
            }
            let stepped = slot.driver.step(action)?;
            out.reward[env] = stepped.reward;
            out.terminated[env] = stepped.terminated;
            out.invalid[env] = stepped.invalid.is_some();
            slot.invalid = stepped.invalid;
            if stepped.terminated {
                match ctx.autoreset {
                    Autoreset::NextStep => slot.due = true,
                    Autoreset::SameStep => {
                        out.write_last(env, slot, ctx.fields);
                        slot.seed = ctx.next_seed(slot.seed);
                        slot.driver.reset(slot.seed, ctx.group)?;
                    }
                }
            }
            out.write_now(env, slot, ctx);
            Ok(())
        })
    }

    /// Runs `work` for every sub-environment with its input, its part of `out` and its index,
    /// on the pool's threads (a few sub-environments a task).
    fn run<T: Sync>(
        &mut self,
        inputs: &[T],
        mut out: Batch<'_>,
        work: impl Fn(&mut Slot, &T, &mut Batch<'_>, usize, &Context) -> Result<(), String> + Sync,
    ) -> Result<(), String> {
        let ctx = self.context();
        let chunk = self.chunk;
        let task = |(slots, inputs, mut out): (&mut [Slot], &[T], Batch<'_>)| {
            slots
                .iter_mut()
                .zip(inputs)
                .enumerate()
                .try_for_each(|(env, (slot, input))| work(slot, input, &mut out, env, &ctx))
        };
        match &self.pool {
            None => task((&mut self.slots, inputs, out)),
            Some(pool) => {
                let mut parts = Vec::with_capacity(self.slots.len().div_ceil(chunk));
                let mut left = self.slots.len();
                while left > 0 {
                    let envs = chunk.min(left);
                    parts.push(out.take_front(envs, &ctx));
                    left -= envs;
                }
                let tasks: Vec<_> = self
                    .slots
                    .chunks_mut(chunk)
                    .zip(inputs.chunks(chunk))
                    .zip(parts)
                    .map(|((slots, inputs), out)| (slots, inputs, out))
                    .collect();
                pool.install(|| tasks.into_par_iter().try_for_each(task))
            }
        }
    }
}

/// What every sub-environment's work reads of the vector environment.
struct Context {
    fields: &'static [Field],
    actions: usize,
    envs: usize,
    group: Option<u32>,
    autoreset: Autoreset,
    repeat_cases: bool,
    legal_width: Option<usize>,
}

impl VectorDriver {
    fn context(&self) -> Context {
        Context {
            fields: self.fields,
            actions: self.actions,
            envs: self.slots.len(),
            group: self.group,
            autoreset: self.autoreset,
            repeat_cases: self.repeat_cases,
            legal_width: self.legal_width,
        }
    }
}

impl Context {
    /// Whether the batches list the allowed actions instead of masking them.
    fn lists(&self) -> bool {
        self.legal_width.is_some()
    }

    /// A sub-environment's part of the mask array (0 when listing).
    fn mask_len(&self) -> usize {
        if self.lists() { 0 } else { self.actions }
    }

    /// A sub-environment's part of the legal list array (0 when masking).
    fn legal_width(&self) -> usize {
        self.legal_width.unwrap_or(0)
    }

    /// The seed of a sub-environment's next game after one of seed `seed`.
    fn next_seed(&self, seed: u64) -> u64 {
        if self.repeat_cases {
            seed
        } else {
            seed.wrapping_add(self.envs as u64)
        }
    }
}

/// Owned arrays for a [`VectorDriver`]'s batches: for Rust callers (tests, the bench); Python
/// passes numpy's.
pub struct Arrays {
    pub observation: Vec<Buffer>,
    pub mask: Vec<i8>,
    pub legal: Vec<i32>,
    pub legal_count: Vec<i32>,
    pub reward: Vec<f64>,
    pub terminated: Vec<bool>,
    pub invalid: Vec<bool>,
    pub score: Vec<f64>,
    pub seed: Vec<u64>,
    pub last_observation: Vec<Buffer>,
    pub last_score: Vec<f64>,
    pub last_seed: Vec<u64>,
}

impl Arrays {
    /// Zeroed arrays for `vector`'s batches.
    pub fn new(vector: &VectorDriver) -> Self {
        let envs = vector.envs();
        let ctx = vector.context();
        let buffers = || {
            vector
                .fields()
                .iter()
                .map(|field| match field.dtype {
                    Dtype::I8 => Buffer::I8(vec![0; envs * field.len()]),
                    Dtype::I32 => Buffer::I32(vec![0; envs * field.len()]),
                })
                .collect()
        };
        Arrays {
            observation: buffers(),
            mask: vec![0; envs * ctx.mask_len()],
            legal: vec![0; envs * ctx.legal_width()],
            legal_count: vec![0; envs * ctx.lists() as usize],
            reward: vec![0.0; envs],
            terminated: vec![false; envs],
            invalid: vec![false; envs],
            score: vec![0.0; envs],
            seed: vec![0; envs],
            last_observation: buffers(),
            last_score: vec![0.0; envs],
            last_seed: vec![0; envs],
        }
    }

    /// The arrays as a step or reset writes them.
    pub fn batch(&mut self) -> Batch<'_> {
        Batch {
            observation: self.observation.iter_mut().map(Buffer::values).collect(),
            mask: &mut self.mask,
            legal: &mut self.legal,
            legal_count: &mut self.legal_count,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            invalid: &mut self.invalid,
            score: &mut self.score,
            seed: &mut self.seed,
            last_observation: self
                .last_observation
                .iter_mut()
                .map(Buffer::values)
                .collect(),
            last_score: &mut self.last_score,
            last_seed: &mut self.last_seed,
        }
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::rng::FastRng;

    use super::*;

    /// Sub-environment `env`'s part of every observation array.
    fn observation_of(buffers: &[Buffer], fields: &[Field], env: usize) -> Vec<i32> {
        buffers
            .iter()
            .zip(fields)
            .flat_map(|(buffer, field)| {
                let range = env * field.len()..(env + 1) * field.len();
                match buffer {
                    Buffer::I8(values) => values[range]
                        .iter()
                        .map(|&v| i32::from(v))
                        .collect::<Vec<_>>(),
                    Buffer::I32(values) => values[range].to_vec(),
                }
            })
            .collect()
    }

    /// The single driver's observation now, flattened.
    fn single_observation(driver: &Driver) -> Vec<i32> {
        driver
            .fields()
            .iter()
            .enumerate()
            .flat_map(|(index, field)| {
                let mut buffer = match field.dtype {
                    Dtype::I8 => Buffer::I8(vec![0; field.len()]),
                    Dtype::I32 => Buffer::I32(vec![0; field.len()]),
                };
                driver.observe(index, &mut buffer.values());
                observation_of(
                    std::slice::from_ref(&buffer),
                    std::slice::from_ref(field),
                    0,
                )
            })
            .collect()
    }

    /// What a sub-environment showed after a reset or a step.
    #[derive(Clone, Debug, PartialEq)]
    struct Seen {
        reward: f64,
        terminated: bool,
        invalid: bool,
        score: f64,
        observation: Vec<i32>,
        mask: Vec<i8>,
    }

    /// One game a sub-environment played: its seed, what its reset showed, then each action
    /// and what the step showed (the last one's observation is the game's last).
    #[derive(Debug, Default)]
    struct Game {
        seed: u64,
        start: Option<Seen>,
        steps: Vec<(i64, Seen)>,
    }

    /// The games each sub-environment plays to the end in a test (a reversi case takes a
    /// genetic algorithm to deal: a few).
    const GAMES: usize = 2;

    /// Plays mostly allowed, sometimes random actions (which the rules may refuse) in a vector
    /// environment of `name` until each sub-environment has finished [`GAMES`] games, and
    /// returns them.
    fn vector_games(
        name: &str,
        envs: usize,
        threads: usize,
        autoreset: Autoreset,
    ) -> Vec<Vec<Game>> {
        let mut vector = VectorDriver::new(name, envs, threads, autoreset).expect("a vector");
        let (fields, actions) = (vector.fields(), vector.actions());
        let mut arrays = Arrays::new(&vector);
        let seeds: Vec<u64> = (0..envs as u64).map(|i| 40 + i).collect();
        vector.reset(&seeds, None, arrays.batch()).expect("a reset");
        let seen = |arrays: &Arrays, env: usize, last: bool| Seen {
            reward: arrays.reward[env],
            terminated: arrays.terminated[env],
            invalid: arrays.invalid[env],
            score: if last {
                arrays.last_score[env]
            } else {
                arrays.score[env]
            },
            observation: if last {
                observation_of(&arrays.last_observation, fields, env)
            } else {
                observation_of(&arrays.observation, fields, env)
            },
            mask: if last {
                Vec::new()
            } else {
                arrays.mask[env * actions..(env + 1) * actions].to_vec()
            },
        };
        let mut games: Vec<Vec<Game>> = (0..envs).map(|_| Vec::new()).collect();
        let mut current: Vec<Game> = (0..envs)
            .map(|env| Game {
                seed: seeds[env],
                start: Some(seen(&arrays, env, false)),
                steps: Vec::new(),
            })
            .collect();
        let mut rng = FastRng::new(7);
        let mut chosen = vec![0i64; envs];
        let mut due = vec![false; envs];
        for _ in 0..100_000 {
            if games.iter().all(|games| games.len() >= GAMES) {
                break;
            }
            for (action, mask) in chosen.iter_mut().zip(arrays.mask.chunks(actions)) {
                let allowed: Vec<usize> = (0..actions).filter(|&i| mask[i] == 1).collect();
                *action = if allowed.is_empty() || rng.below(40) == 0 {
                    i64::from(rng.below(actions as u32))
                } else {
                    allowed[rng.below(allowed.len() as u32) as usize] as i64
                };
            }
            vector.step(&chosen, arrays.batch()).expect("a step");
            for env in 0..envs {
                if due[env] {
                    // Next-step autoreset: this step started the next game.
                    due[env] = false;
                    assert_eq!(arrays.reward[env], 0.0);
                    assert_eq!(
                        arrays.seed[env],
                        current[env].seed.wrapping_add(envs as u64)
                    );
                    let next = Game {
                        seed: arrays.seed[env],
                        start: Some(seen(&arrays, env, false)),
                        steps: Vec::new(),
                    };
                    games[env].push(std::mem::replace(&mut current[env], next));
                    continue;
                }
                let ended = arrays.terminated[env];
                match (ended, autoreset) {
                    (true, Autoreset::SameStep) => {
                        assert_eq!(arrays.last_seed[env], current[env].seed);
                        current[env]
                            .steps
                            .push((chosen[env], seen(&arrays, env, true)));
                        let next = Game {
                            seed: arrays.seed[env],
                            start: Some(Seen {
                                reward: 0.0,
                                terminated: false,
                                invalid: false,
                                ..seen(&arrays, env, false)
                            }),
                            steps: Vec::new(),
                        };
                        assert_eq!(next.seed, current[env].seed.wrapping_add(envs as u64));
                        games[env].push(std::mem::replace(&mut current[env], next));
                    }
                    (true, Autoreset::NextStep) => {
                        current[env]
                            .steps
                            .push((chosen[env], seen(&arrays, env, false)));
                        due[env] = true;
                    }
                    (false, _) => current[env]
                        .steps
                        .push((chosen[env], seen(&arrays, env, false))),
                }
            }
        }
        games
    }

    /// Replays `game` in a single driver of `name`: the same observations, masks, rewards,
    /// ends and scores at every step.
    fn check_against_single(name: &str, game: &Game, last_has_mask: bool) {
        let mut single = driver::driver(name).expect("a game");
        single.reset(game.seed, None).expect("a case");
        let look = |single: &Driver, stepped: Option<&driver::Stepped>, with_mask: bool| {
            let mut mask = vec![0i8; single.actions()];
            single.action_mask(&mut mask);
            Seen {
                reward: stepped.map_or(0.0, |s| s.reward),
                terminated: stepped.is_some_and(|s| s.terminated),
                invalid: stepped.is_some_and(|s| s.invalid.is_some()),
                score: single.score(),
                observation: single_observation(single),
                mask: if with_mask { mask } else { Vec::new() },
            }
        };
        assert_eq!(
            game.start.as_ref(),
            Some(&look(&single, None, true)),
            "{name} seed {}: start",
            game.seed
        );
        for (n, (action, seen)) in game.steps.iter().enumerate() {
            let stepped = single.step(*action).expect("a step");
            let last = n + 1 == game.steps.len();
            let expected = look(&single, Some(&stepped), !last || last_has_mask);
            assert_eq!(seen, &expected, "{name} seed {}: step {n}", game.seed);
        }
        assert!(
            single.is_over(),
            "{name} seed {}: a finished game",
            game.seed
        );
    }

    #[test]
    fn legal_lists_are_the_masks_allowed_actions() {
        for name in driver::games() {
            let envs = 3;
            let masked = VectorDriver::new(name, envs, 1, Autoreset::SameStep).expect("a vector");
            let actions = masked.actions();
            // Polyomino lists its pending piece's placements: a narrower list would truncate.
            let width = if name == "polyomino" {
                actions
            } else {
                actions.min(1640)
            };
            let listed = VectorDriver::new(name, envs, 2, Autoreset::SameStep)
                .expect("a vector")
                .listing_legal(Some(width))
                .expect("a width in the space");
            let (mut masked, mut listed) = (masked, listed);
            let (mut by_mask, mut by_list) = (Arrays::new(&masked), Arrays::new(&listed));
            assert!(by_list.mask.is_empty() && by_mask.legal.is_empty());
            let seeds = [11, 12, 13];
            masked
                .reset(&seeds, None, by_mask.batch())
                .expect("a reset");
            listed
                .reset(&seeds, None, by_list.batch())
                .expect("a reset");
            let mut rng = FastRng::new(3);
            let mut ends = 0;
            for _ in 0..120 {
                let mut chosen = vec![0i64; envs];
                for (env, choice) in chosen.iter_mut().enumerate() {
                    let allowed: Vec<i32> = (0..actions)
                        .filter(|&i| by_mask.mask[env * actions + i] == 1)
                        .map(|i| i as i32)
                        .collect();
                    let count = by_list.legal_count[env] as usize;
                    let row = &by_list.legal[env * width..(env + 1) * width];
                    assert_eq!(count, allowed.len(), "{name}");
                    assert_eq!(&row[..count], allowed.as_slice(), "{name}");
                    assert!(row[count..].iter().all(|&a| a == -1), "{name}: padding");
                    *choice = i64::from(row[rng.below(count as u32) as usize]);
                }
                masked.step(&chosen, by_mask.batch()).expect("a step");
                listed.step(&chosen, by_list.batch()).expect("a step");
                assert_eq!(by_list.observation, by_mask.observation, "{name}");
                assert_eq!(by_list.reward, by_mask.reward, "{name}");
                ends += by_list.terminated.iter().filter(|&&t| t).count();
            }
            assert!(ends > 0 || name == "polyomino", "{name}: no game ended");
        }
        // Too narrow a list keeps the first actions and says how many there are.
        let mut narrow = VectorDriver::new("linez", 1, 1, Autoreset::SameStep)
            .expect("a vector")
            .listing_legal(Some(5))
            .expect("a width");
        let mut arrays = Arrays::new(&narrow);
        narrow.reset(&[1], None, arrays.batch()).expect("a reset");
        assert!(arrays.legal_count[0] > 5);
        assert!(arrays.legal.iter().all(|&a| a >= 0));
        for width in [0, 6562] {
            let error = VectorDriver::new("linez", 1, 1, Autoreset::SameStep)
                .expect("a vector")
                .listing_legal(Some(width))
                .err()
                .expect("refused");
            assert!(error.contains("expected 1 to"), "{error}");
        }
    }

    #[test]
    fn repeated_cases_start_again_and_a_seed_given_twice_is_the_same_case() {
        let mut vector = VectorDriver::new("reversi", 3, 2, Autoreset::SameStep)
            .expect("a vector")
            .repeating_cases(true);
        let mut arrays = Arrays::new(&vector);
        vector
            .reset(&[8, 9, 8], None, arrays.batch())
            .expect("a reset");
        let fields = vector.fields();
        let starts: Vec<_> = (0..3)
            .map(|env| observation_of(&arrays.observation, fields, env))
            .collect();
        assert_eq!(starts[0], starts[2]);
        assert_ne!(starts[0], starts[1]);
        let actions = vector.actions();
        let mut ended = [0; 3];
        for _ in 0..10_000 {
            if ended.iter().all(|&n| n >= 2) {
                break;
            }
            let chosen: Vec<i64> = arrays
                .mask
                .chunks(actions)
                .map(|mask| {
                    mask.iter()
                        .position(|&m| m == 1)
                        .expect("an allowed action") as i64
                })
                .collect();
            vector.step(&chosen, arrays.batch()).expect("a step");
            for env in 0..3 {
                if arrays.terminated[env] {
                    ended[env] += 1;
                    assert_eq!(arrays.seed[env], arrays.last_seed[env]);
                    assert_eq!(
                        observation_of(&arrays.observation, fields, env),
                        starts[env]
                    );
                }
            }
        }
        assert!(ended.iter().all(|&n| n >= 2), "games ended: {ended:?}");
    }

    #[test]
    fn every_sub_environment_plays_the_single_environments_games() {
        for name in driver::games() {
            for (threads, autoreset) in [
                (1, Autoreset::SameStep),
                (2, Autoreset::SameStep),
                (2, Autoreset::NextStep),
            ] {
                let games = vector_games(name, 3, threads, autoreset);
                assert!(
                    games.iter().all(|games| games.len() >= GAMES),
                    "{name}: games unfinished"
                );
                for game in games.iter().flatten() {
                    check_against_single(name, game, autoreset == Autoreset::NextStep);
                }
            }
        }
    }
}
