//! Prints the generator's vectors (tests/data/generator_vectors.txt): per seed, the board's
//! W H K, its first three covered cells, and the first pieces the judge deals for sizes 3, 5
//! and 8 (rows joined by `/`). The original tester is lost (docs/rules.md#polyomino-generation), so
//! these pin marathon's own definition against accidental change.
//!
//! cargo run -p marathon-polyomino --example vectors > crates/polyomino/tests/data/generator_vectors.txt

use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::rules::PieceSource;

fn main() {
    println!("# seed W H K x0 y0 x1 y1 x2 y2 piece3 piece5 piece8");
    for seed in (1..=12).chain([0, 1 << 40, u64::MAX]) {
        let case = PolyominoCase::new(seed);
        let mut pieces = case.pieces();
        let mut fields = vec![
            seed.to_string(),
            case.width.to_string(),
            case.height.to_string(),
            case.covered.len().to_string(),
        ];
        for &(x, y) in &case.covered[..3] {
            fields.push(x.to_string());
            fields.push(y.to_string());
        }
        for size in [3, 5, 8] {
            fields.push(pieces.next_piece(size).rows().join("/"));
        }
        println!("{}", fields.join(" "));
    }
}
