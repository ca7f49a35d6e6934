//! Prints the generator's golden lines for tests/data/generator_golden.txt.
use marathon_reversi::generator;
use marathon_reversi::rules::Cell;
fn main() {
    println!("# seed size players opponent row col weight (docs/rules.md#reversi-generation)");
    for seed in [1u64, 2, 13, 14] {
        let case = generator::generate(seed);
        let n = case.size;
        for (o, w) in case.opponents.iter().enumerate() {
            for (r, c) in [(0, 0), (n / 2, n / 3), (n - 1, n - 1)] {
                println!(
                    "{seed} {n} {} {o} {r} {c} {:?}",
                    case.players,
                    w.get(Cell::new(r, c))
                );
            }
        }
    }
}
