//! Checks `JavaSecureRandom` against values printed by Java 17 (tests/data/java_sha1prng_vectors.txt).

use marathon_core::rng::JavaSecureRandom;

const VECTORS: &str = include_str!("../data/java_sha1prng_vectors.txt");

/// `key=value` fields of one line, in order.
fn fields(line: &str) -> Vec<(&str, &str)> {
    line.split_whitespace()
        .map(|f| {
            f.split_once('=')
                .unwrap_or_else(|| panic!("field without '=' in line: {line}"))
        })
        .collect()
}

fn list<T: std::str::FromStr>(text: &str, line: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    text.split(',')
        .map(|v| {
            v.parse()
                .unwrap_or_else(|e| panic!("bad value {v:?} ({e:?}) in line: {line}"))
        })
        .collect()
}

/// Draws the documented sequence and compares; returns how many values were checked.
fn check_sequence_line(seed: i64, fields: &[(&str, &str)], line: &str) -> usize {
    const ORDER: [&str; 7] = [
        "ints1000",
        "ints7",
        "ints2pow20",
        "int32",
        "doubles",
        "longs",
        "bool",
    ];
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ORDER, "unexpected fields in line: {line}");
    let value = |i: usize| fields[i].1;

    let mut rng = JavaSecureRandom::new(seed);
    let mut checked = 0;
    let mut check_ints = |rng: &mut JavaSecureRandom, name: &str, want: Vec<i32>, count: usize| {
        assert_eq!(want.len(), count, "{name} count, line: {line}");
        for (i, &w) in want.iter().enumerate() {
            let got = match name {
                "ints1000" => rng.next_int(1000),
                "ints7" => rng.next_int(7),
                "ints2pow20" => rng.next_int(1 << 20),
                "int32" => rng.next_i32(),
                _ => unreachable!(),
            };
            assert_eq!(got, w, "seed {seed} {name}[{i}]");
            checked += 1;
        }
    };
    check_ints(&mut rng, "ints1000", list(value(0), line), 8);
    check_ints(&mut rng, "ints7", list(value(1), line), 4);
    check_ints(&mut rng, "ints2pow20", list(value(2), line), 4);
    check_ints(&mut rng, "int32", list(value(3), line), 2);

    let doubles: Vec<f64> = list(value(4), line);
    assert_eq!(doubles.len(), 2, "doubles count, line: {line}");
    for (i, &w) in doubles.iter().enumerate() {
        let got = rng.next_double();
        assert_eq!(
            got.to_bits(),
            w.to_bits(),
            "seed {seed} doubles[{i}]: {got} vs {w}"
        );
        checked += 1;
    }

    let longs: Vec<i64> = list(value(5), line);
    assert_eq!(longs.len(), 2, "longs count, line: {line}");
    for (i, &w) in longs.iter().enumerate() {
        assert_eq!(rng.next_long(), w, "seed {seed} longs[{i}]");
        checked += 1;
    }

    let want_bool: bool = value(6)
        .parse()
        .unwrap_or_else(|_| panic!("bad bool in line: {line}"));
    assert_eq!(rng.next_boolean(), want_bool, "seed {seed} bool");
    checked + 1
}

fn check_tiles_line(seed: i64, fields: &[(&str, &str)], line: &str) -> usize {
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ["N", "S", "D"], "unexpected fields in line: {line}");
    let want: Vec<i32> = fields
        .iter()
        .map(|(_, v)| {
            v.parse()
                .unwrap_or_else(|_| panic!("bad value in line: {line}"))
        })
        .collect();
    let mut rng = JavaSecureRandom::new(seed);
    let n = rng.next_int(7) + 4;
    let s = rng.next_int(5) + 8;
    let d = rng.next_int(3) + 2;
    assert_eq!(
        [n, s, d][..],
        want[..],
        "TilesMatching seed {seed} (N, S, D)"
    );
    3
}

#[test]
fn matches_java_vectors() {
    let mut sequence_lines = 0;
    let mut tiles_lines = 0;
    let mut values = 0;
    for line in VECTORS.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields = fields(line);
        let (key, seed) = fields[0];
        assert_eq!(key, "seed", "line must start with seed=: {line}");
        let seed: i64 = seed
            .parse()
            .unwrap_or_else(|_| panic!("bad seed in line: {line}"));
        let rest = &fields[1..];
        if rest.first().is_some_and(|(k, _)| *k == "N") {
            values += check_tiles_line(seed, rest, line);
            tiles_lines += 1;
        } else {
            values += check_sequence_line(seed, rest, line);
            sequence_lines += 1;
        }
    }
    assert!(
        sequence_lines > 0 && tiles_lines > 0,
        "vector file yielded {sequence_lines} sequence lines and {tiles_lines} TilesMatching lines"
    );
    eprintln!("checked {values} values from {sequence_lines} + {tiles_lines} lines");
}
