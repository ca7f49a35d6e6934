//! Deals from a seed exactly as the Kattis tests were made (docs/rules.md#solitaire-generation):
//! Python 3's `random.seed(seed)`, then for each cell in row-major order three `random.choice` over
//! the case's alphabet, top (bronze) first. Also the statement's groups and the official cases.

use std::fmt;

use marathon_core::rng::PythonRandom;

use crate::rules::{CELLS, Cell, LEVELS, Piece};

/// The pieces a case draws from, in the order `random.choice` sees them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alphabet(Vec<Piece>);

impl Alphabet {
    /// From official_tests.txt's letters (`1234tlds`); `None` on an unknown letter, a repeated
    /// one, or none at all.
    pub fn parse(letters: &str) -> Option<Alphabet> {
        let mut pieces = Vec::new();
        for letter in letters.chars() {
            let piece = Piece::from_letter(letter)?;
            if pieces.contains(&piece) {
                return None;
            }
            pieces.push(piece);
        }
        (!pieces.is_empty()).then_some(Alphabet(pieces))
    }

    pub fn pieces(&self) -> &[Piece] {
        &self.0
    }

    /// The alphabet of the statement's group 1..=6.
    pub fn of_group(group: u32) -> Option<Alphabet> {
        let letters = GROUP_ALPHABETS.get((group as usize).checked_sub(1)?)?;
        Alphabet::parse(letters)
    }
}

/// Written as official_tests.txt writes it (`1234tlds`).
impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|p| write!(f, "{}", p.letter()))
    }
}

/// The statement's group table (group 1: only springare, 2: only 1, 3: 1 and 2, 4: torn, lopare,
/// dam, 5: the numbers, 6: everything), in the letter order of official_tests.txt.
pub const GROUP_ALPHABETS: [&str; 6] = ["s", "1", "12", "tld", "1234", "1234tlds"];

/// The group random cases use when none is given: the one with every piece.
pub const DEFAULT_GROUP: u32 = 6;

/// Every piece of a case: `stacks[cell][level]`, level 0 the bronze top, 2 the gold bottom.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pub stacks: [[Piece; LEVELS as usize]; CELLS],
}

impl Deal {
    pub fn new(alphabet: &Alphabet, seed: u64) -> Deal {
        let mut rng = PythonRandom::new(seed);
        let mut stacks = [[Piece::One; LEVELS as usize]; CELLS];
        for stack in &mut stacks {
            for slot in stack.iter_mut() {
                *slot = *rng.choice(alphabet.pieces());
            }
        }
        Deal { stacks }
    }

    /// The bronze pieces the player sees at the start.
    pub fn tops(&self) -> [Piece; CELLS] {
        self.stacks.map(|stack| stack[0])
    }

    /// The piece at `level` of `cell`, `None` below the gold one.
    pub fn piece(&self, cell: Cell, level: u8) -> Option<Piece> {
        self.stacks[cell.index()].get(level as usize).copied()
    }

    /// The `.stacks` picture of official tests: 6 rows of 6 `top/middle/bottom` cells.
    pub fn to_stacks_text(&self) -> String {
        let mut out = String::new();
        for row in self.stacks.chunks(crate::rules::SIZE) {
            let cells: Vec<String> = row
                .iter()
                .map(|s| format!("{}/{}/{}", s[0], s[1], s[2]))
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}

/// One line of official_tests.txt.
#[derive(Clone, Debug, PartialEq)]
pub struct OfficialCase {
    /// `g1`, `g3-2`, ...
    pub name: &'static str,
    pub group: u32,
    pub alphabet: Alphabet,
    /// The case's Kattis points P.
    pub points: u32,
    pub seed: u64,
    /// The best recorded score Y.
    pub best: u32,
}

impl OfficialCase {
    /// The Kattis points for raw score `score`: P * X / Y.
    pub fn kattis_points(&self, score: f64) -> f64 {
        self.points as f64 * score / self.best as f64
    }
}

/// The official cases (docs/rules.md#solitaire-groups-and-official-cases), one a line.
const OFFICIAL_TESTS: &str = include_str!("official_tests.txt");

/// The 14 official cases, in the file's order.
pub fn official_cases() -> Vec<OfficialCase> {
    OFFICIAL_TESTS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&'static str> = line.split_whitespace().collect();
            let [name, letters, points, seed, best] = fields[..] else {
                panic!("official_tests.txt: bad line {line:?}");
            };
            let group = name[1..2].parse().expect("names start with gN");
            OfficialCase {
                name,
                group,
                alphabet: Alphabet::parse(letters).expect("a valid alphabet"),
                points: points.parse().expect("points"),
                seed: seed.parse().expect("seed"),
                best: best.parse().expect("best score"),
            }
        })
        .collect()
}

/// The official case of that name.
pub fn official_case(name: &str) -> Option<OfficialCase> {
    official_cases().into_iter().find(|c| c.name == name)
}
