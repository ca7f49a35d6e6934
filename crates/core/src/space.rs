//! Fixed action and observation spaces for an [`Environment`], as reinforcement-learning
//! libraries want them: every action of a game has a number in `0..ACTIONS` for every case, the
//! legal ones are a mask over those numbers, and an observation is a fixed set of numeric arrays
//! whose shapes do not depend on the case (boards are padded to the largest size a case can have,
//! with a plane that says which cells are on the board).
//!
//! The encoding belongs to the games: each game crate implements [`Spaces`] next to its
//! environment, so the Python bindings (and anything else that wants numbers rather than text)
//! stay generic.

use crate::env::{Environment, Turn};

/// The element type of an observation array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    I8,
    I32,
}

/// One array of an observation: a name (the key of a `Dict` space), its shape (row-major), its
/// element type and the inclusive bounds of its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub shape: &'static [usize],
    pub dtype: Dtype,
    pub low: i32,
    pub high: i32,
}

impl Field {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A caller's buffer for one [`Field`], of the field's element type and length.
#[derive(Debug)]
pub enum Values<'a> {
    I8(&'a mut [i8]),
    I32(&'a mut [i32]),
}

impl<'a> Values<'a> {
    pub fn len(&self) -> usize {
        match self {
            Values::I8(values) => values.len(),
            Values::I32(values) => values.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sets element `index` to `value`, which must fit the element type (the game's bounds
    /// guarantee it; a test checks every value against them).
    #[inline]
    pub fn set(&mut self, index: usize, value: i32) {
        match self {
            Values::I8(values) => values[index] = value as i8,
            Values::I32(values) => values[index] = value,
        }
    }

    /// Sets every element to `value`.
    #[inline]
    pub fn fill(&mut self, value: i32) {
        match self {
            Values::I8(values) => values.fill(value as i8),
            Values::I32(values) => values.fill(value),
        }
    }

    /// Element `index`, widened.
    pub fn get(&self, index: usize) -> i32 {
        match self {
            Values::I8(values) => i32::from(values[index]),
            Values::I32(values) => values[index],
        }
    }

    /// Elements `start..start + len`, as a buffer of their own (one environment's part of a
    /// batch's array).
    pub fn part(&mut self, start: usize, len: usize) -> Values<'_> {
        match self {
            Values::I8(values) => Values::I8(&mut values[start..start + len]),
            Values::I32(values) => Values::I32(&mut values[start..start + len]),
        }
    }

    /// The first `len` elements, taken off the front: what is left stays in `self` (a batch's
    /// array cut into the parts its threads fill).
    pub fn take_front(&mut self, len: usize) -> Values<'a> {
        match self {
            Values::I8(values) => {
                let (front, back) = std::mem::take(values).split_at_mut(len);
                *values = back;
                Values::I8(front)
            }
            Values::I32(values) => {
                let (front, back) = std::mem::take(values).split_at_mut(len);
                *values = back;
                Values::I32(front)
            }
        }
    }
}

/// A game's fixed spaces. Action numbers are the same for every case of the game, so a policy
/// can be trained across cases; [`Spaces::action`] maps every number in range to an action even
/// where the rules refuse it now (a cell off a small board), and [`Environment::step`] says
/// whether it is legal.
pub trait Spaces: Environment {
    /// The size of the `Discrete` action space.
    const ACTIONS: usize;
    /// The observation's arrays, in order.
    const FIELDS: &'static [Field];

    /// The action numbered `index`; `None` only when `index >= ACTIONS`.
    fn action(&self, index: usize) -> Option<Self::Action>;

    /// The number of `action`, if the space has one for it (every action the mask allows has).
    fn action_index(&self, action: Self::Action) -> Option<usize>;

    /// Writes 1 for every action the player may take now and 0 for the others; `mask` has
    /// [`Spaces::ACTIONS`] elements. All 0 unless it is the player's turn. For most games this
    /// is exactly [`Environment::legal_actions`]; a game may offer a subset that keeps random
    /// play meaningful (Polyomino's phases), but never an action the rules refuse.
    fn action_mask(&self, mask: &mut [i8]);

    /// Calls `allowed` with the number of every action [`Spaces::action_mask`] allows, in
    /// increasing order: the mask's compact form, for games whose masks are large and sparse.
    /// The default reads the mask (allocating one); a game with a quicker way overrides it.
    fn for_each_allowed(&self, allowed: &mut dyn FnMut(usize)) {
        let mut mask = vec![0i8; Self::ACTIONS];
        self.action_mask(&mut mask);
        for (index, _) in mask.iter().enumerate().filter(|&(_, &m)| m == 1) {
            allowed(index);
        }
    }

    /// Writes every element of field `field` (an index into [`Spaces::FIELDS`]) into `out`, a
    /// buffer of that field's type and length.
    fn observe(&self, field: usize, out: &mut Values<'_>);
}

/// A buffer for every field of `E`, zero-filled: for tests and callers without numpy.
pub fn observation_buffers<E: Spaces>() -> Vec<Buffer> {
    E::FIELDS
        .iter()
        .map(|field| match field.dtype {
            Dtype::I8 => Buffer::I8(vec![0; field.len()]),
            Dtype::I32 => Buffer::I32(vec![0; field.len()]),
        })
        .collect()
}

/// An owned buffer for one field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Buffer {
    I8(Vec<i8>),
    I32(Vec<i32>),
}

impl Buffer {
    /// The buffer as [`Spaces::observe`] writes it.
    pub fn values(&mut self) -> Values<'_> {
        match self {
            Buffer::I8(values) => Values::I8(values),
            Buffer::I32(values) => Values::I32(values),
        }
    }
}

/// Observes every field of `env` into fresh buffers.
pub fn observe_all<E: Spaces>(env: &E) -> Vec<Buffer> {
    let mut buffers = observation_buffers::<E>();
    for (field, buffer) in buffers.iter_mut().enumerate() {
        env.observe(field, &mut buffer.values());
    }
    buffers
}

/// Checks the spaces of `env` in its current position, for the games' tests: every field's
/// values within its bounds; every allowed action number maps to a legal action that maps back
/// to it; and, if `exact`, the allowed numbers are exactly the legal actions (else a subset).
pub fn check_position<E: Spaces>(env: &E, exact: bool) -> Result<(), String> {
    for (field, buffer) in E::FIELDS.iter().zip(observe_all(env).iter_mut()) {
        let values = buffer.values();
        if values.len() != field.len() {
            return Err(format!("field {}: {} values", field.name, values.len()));
        }
        for i in 0..values.len() {
            let value = values.get(i);
            if value < field.low || value > field.high {
                return Err(format!(
                    "field {}[{i}] = {value} outside {}..={}",
                    field.name, field.low, field.high
                ));
            }
        }
    }
    // The legal actions by number (a game's mask may leave some without one).
    let legal = env.legal_actions();
    let mut is_legal = vec![false; E::ACTIONS];
    let mut numbered = 0;
    for &action in &legal {
        match env.action_index(action) {
            Some(index) if index < E::ACTIONS => {
                is_legal[index] = true;
                numbered += 1;
            }
            Some(index) => return Err(format!("{action:?} has index {index}, out of range")),
            None if exact => return Err(format!("legal {action:?} has no index")),
            None => {}
        }
    }
    let mut mask = vec![0i8; E::ACTIONS];
    env.action_mask(&mut mask);
    for (index, &allowed) in mask.iter().enumerate() {
        let action = env
            .action(index)
            .ok_or_else(|| format!("no action for index {index}"))?;
        if env.action_index(action) != Some(index) {
            return Err(format!("{action:?} (index {index}) does not map back"));
        }
        match allowed {
            0 if exact && is_legal[index] => {
                return Err(format!("legal {action:?} (index {index}) not in the mask"));
            }
            0 => {}
            1 if !is_legal[index] => {
                return Err(format!("mask allows {action:?} (index {index}), not legal"));
            }
            1 => {}
            other => return Err(format!("mask[{index}] = {other}")),
        }
    }
    if env.action(E::ACTIONS).is_some() {
        return Err(format!("an action for index {} (out of range)", E::ACTIONS));
    }
    if exact && numbered != legal.len() {
        return Err(format!(
            "{numbered} of {} legal actions numbered",
            legal.len()
        ));
    }
    let mut listed = Vec::new();
    env.for_each_allowed(&mut |index| listed.push(index));
    let masked: Vec<usize> = (0..E::ACTIONS).filter(|&i| mask[i] == 1).collect();
    if listed != masked {
        return Err(format!(
            "for_each_allowed lists {} actions, the mask allows {} (or another order)",
            listed.len(),
            masked.len()
        ));
    }
    if env.turn() == Turn::Player && !mask.contains(&1) {
        return Err("the player's turn, and nothing allowed".into());
    }
    Ok(())
}

/// Plays `env` to its end (or `max_steps` decisions) taking the allowed action numbered by
/// `pick(allowed count)` each turn, checking every position with [`check_position`]; returns
/// the decisions made.
pub fn check_playout<E: Spaces>(
    env: &mut E,
    exact: bool,
    max_steps: usize,
    mut pick: impl FnMut(usize) -> usize,
) -> Result<usize, String> {
    let mut mask = vec![0i8; E::ACTIONS];
    for decision in 0..max_steps {
        env.advance_while_auto(|_, _| {});
        check_position(env, exact).map_err(|e| format!("decision {decision}: {e}"))?;
        if env.turn() == Turn::Over {
            return Ok(decision);
        }
        env.action_mask(&mut mask);
        let allowed: Vec<usize> = (0..E::ACTIONS).filter(|&i| mask[i] == 1).collect();
        let index = allowed[pick(allowed.len()) % allowed.len()];
        let action = env.action(index).expect("an index in range");
        env.step(action)
            .map_err(|e| format!("decision {decision}: allowed {action:?} refused: {e}"))?;
    }
    Ok(max_steps)
}
