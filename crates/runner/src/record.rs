//! A case's line in `--json` (JSON Lines): one type that writes and reads it, so the format
//! lives in one place. The schema, version [`SCHEMA`], is documented in `docs/json.md`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use marathon_core::{CaseId, CaseOutcome, Game, Legend, Metric, ParamKind, Verdict};

/// The version of the format [`CaseRecord`] writes, as `docs/json.md` documents it.
pub const SCHEMA: u32 = 2;

/// One case's result as a JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRecord {
    pub game: String,
    pub seed: u64,
    /// The case as tables show it, for named or grouped cases (`g6-1`, `g6:17`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// The case's parameters, each of one type whatever its value: an integer, or text
    /// (solitaire's alphabet, also when it is all digits).
    pub params: BTreeMap<String, Param>,
    pub score: f64,
    pub moves: u64,
    /// The player's time as the judge counted it, in milliseconds.
    pub time_ms: u64,
    /// `verdict` and the verdict's own fields (`line`, `line_bytes`, `reason`; `limit_ms`,
    /// `used_ms`, `detail`; `detail`).
    #[serde(flatten)]
    pub verdict: Verdict,
    /// A program's peak memory, its processes together, in KiB; absent for an in-process
    /// player (schema 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rss_kib: Option<u64>,
    /// The game's own figures (Kattis points, polyomino's raw score, ...), by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, f64>,
    /// 100 * score / best known, when the run kept best scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative: Option<f64>,
    /// The part of the run that played the case (`play --shard I/N`), as `I/N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// A case parameter's value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    Integer(i64),
    Text(String),
}

impl CaseRecord {
    /// The record of `outcome`, a case of the game whose legend is `legend` (which gives each
    /// parameter's type).
    pub fn new(legend: &Legend, outcome: &CaseOutcome, relative: Option<f64>) -> Self {
        let named = outcome.case.name.is_some() || outcome.case.group.is_some();
        CaseRecord {
            game: outcome.game.to_string(),
            seed: outcome.case.seed,
            case: named.then(|| outcome.case.to_string()),
            group: outcome.case.group,
            params: outcome
                .params
                .iter()
                .map(|(name, value)| {
                    let integer = legend
                        .param(name)
                        .is_some_and(|param| param.kind == ParamKind::Integer);
                    let value = match value.parse() {
                        Ok(number) if integer => Param::Integer(number),
                        _ => Param::Text(value.clone()),
                    };
                    (name.to_string(), value)
                })
                .collect(),
            score: outcome.score,
            moves: outcome.moves,
            time_ms: u64::try_from(outcome.time.as_millis()).unwrap_or(u64::MAX),
            verdict: outcome.verdict.clone(),
            max_rss_kib: outcome.max_rss_kib,
            metrics: outcome
                .metrics
                .iter()
                .map(|metric| (metric.name.to_string(), metric.value))
                .collect(),
            relative,
            shard: None,
        }
    }

    /// The outcome this record was made of, for the tables and reports of runs joined from
    /// files (`marathon merge`): `game` is the record's game, whose parameter order the
    /// outcome keeps. The player's CPU account is not recorded.
    pub fn to_outcome(&self, game: &dyn Game) -> Result<CaseOutcome, String> {
        if self.game != game.name() {
            return Err(format!("a {} record read as {}", self.game, game.name()));
        }
        let mut case = match self.group {
            Some(group) => CaseId::in_group(group, self.seed),
            None => CaseId::seed(self.seed),
        };
        // A name is kept only where the record's case is not the plain seed or `gG:seed`.
        if let Some(shown) = &self.case
            && *shown != case.to_string()
        {
            case.name = Some(shown.clone());
        }
        let params = game
            .params()
            .iter()
            .filter_map(|&name| {
                self.params.get(name).map(|value| {
                    let text = match value {
                        Param::Integer(number) => number.to_string(),
                        Param::Text(text) => text.clone(),
                    };
                    (name, text)
                })
            })
            .collect();
        // In the order the game gives them (the legend's), which the record's map lost.
        let legend = game.legend();
        let mut metrics: Vec<Metric> = self
            .metrics
            .iter()
            .map(|(name, &value)| Metric {
                name: intern(name),
                value,
            })
            .collect();
        metrics.sort_by_key(|metric| {
            legend
                .metrics
                .iter()
                .position(|figure| figure.name == metric.name)
                .unwrap_or(usize::MAX)
        });
        Ok(CaseOutcome {
            game: game.name(),
            case,
            params,
            score: self.score,
            moves: self.moves,
            time: std::time::Duration::from_millis(self.time_ms),
            verdict: self.verdict.clone(),
            metrics,
            cpu: None,
            max_rss_kib: self.max_rss_kib,
        })
    }

    /// The case as tables and best-score files name it: its name, `g6:17`, or its seed.
    pub fn case_key(&self) -> String {
        self.case.clone().unwrap_or_else(|| self.seed.to_string())
    }

    /// The object on one line, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }

    /// Reads one line; the error says what is wrong with it.
    pub fn from_line(line: &str) -> Result<Self, String> {
        serde_json::from_str(line).map_err(|e| e.to_string())
    }

    /// Every record of a JSON Lines file (blank lines skipped); an error names the file and
    /// line. A last line without its newline that is not a whole record is what a run cut off
    /// while writing leaves (a full disk, a killed process): the records before it are read,
    /// and [`RecordFile::torn`] says so.
    pub fn read_file(path: &Path) -> Result<RecordFile, String> {
        let mut file = RecordFile::default();
        marathon_core::input::for_each_line(path, |line| {
            if line.text.trim().is_empty() {
                return Ok(());
            }
            match Self::from_line(line.text) {
                Ok(record) => file.records.push(record),
                Err(_) if !line.terminated => {
                    file.torn = Some(format!(
                        "{}:{}: the last line is cut off (no newline, not a whole record: was \
                         the run that wrote it stopped?); read the {} records before it",
                        path.display(),
                        line.number,
                        file.records.len()
                    ));
                }
                Err(e) => return Err(format!("{}:{}: {e}", path.display(), line.number)),
            }
            Ok(())
        })?;
        Ok(file)
    }
}

/// The records of a JSON Lines file ([`CaseRecord::read_file`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordFile {
    pub records: Vec<CaseRecord>,
    /// Set when the file's last line was cut off and left out: what to tell the user.
    pub torn: Option<String>,
}

/// A metric's name as a `&'static str`, as [`Metric`] holds names: each distinct name is
/// leaked once (games have a handful).
fn intern(name: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    match names.get(name) {
        Some(&known) => known,
        None => {
            let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
            names.insert(leaked);
            leaked
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use marathon_core::{CaseId, Metric};

    fn outcome(verdict: Verdict) -> CaseOutcome {
        CaseOutcome {
            game: "solitaire",
            case: CaseId::named("g6-1", Some(6), 12),
            params: vec![("alphabet", "1234tlds".into())],
            score: 40.5,
            moves: 10,
            time: Duration::from_millis(1500),
            verdict,
            metrics: vec![Metric {
                name: "points",
                value: 13.0,
            }],
            cpu: None,
            max_rss_kib: None,
        }
    }

    fn solitaire() -> &'static Legend {
        marathon_games::lookup("solitaire").unwrap().legend()
    }

    /// Each parameter has one JSON type whatever its value: solitaire's alphabet is text also
    /// when it is all digits, tiles' `N` a number.
    #[test]
    fn a_parameter_has_one_type() {
        for alphabet in ["1", "12", "1234", "tld"] {
            let mut case = outcome(Verdict::Ok);
            case.params = vec![("alphabet", alphabet.into())];
            let value: serde_json::Value =
                serde_json::from_str(&CaseRecord::new(solitaire(), &case, None).to_line()).unwrap();
            assert_eq!(value["params"]["alphabet"], alphabet, "{value}");
        }
        let mut case = outcome(Verdict::Ok);
        case.game = "tiles";
        case.params = vec![("N", "6".into()), ("S", "9".into()), ("D", "2".into())];
        let tiles = marathon_games::lookup("tiles").unwrap();
        let record = CaseRecord::new(tiles.legend(), &case, None);
        let value: serde_json::Value = serde_json::from_str(&record.to_line()).unwrap();
        assert_eq!(value["params"]["N"], 6, "{value}");
        let back = record.to_outcome(tiles).unwrap();
        assert_eq!(back.params, case.params);
        // A record of schema 1, where an all-digit alphabet was a number, reads as text.
        let old = r#"{"game":"solitaire","seed":3,"case":"g3:3","group":3,"params":{"alphabet":12},"score":1.0,"moves":1,"time_ms":1,"verdict":"ok"}"#;
        let solitaire_game = marathon_games::lookup("solitaire").unwrap();
        let back = CaseRecord::from_line(old)
            .unwrap()
            .to_outcome(solitaire_game)
            .unwrap();
        assert_eq!(back.params, [("alphabet", "12".to_string())]);
    }

    #[test]
    fn every_verdict_round_trips_through_a_line() {
        for verdict in [
            Verdict::Ok,
            Verdict::invalid("Z9", "bad row"),
            Verdict::timeout(Duration::from_secs(2), Duration::from_millis(2003), true),
            Verdict::Crash {
                detail: "exit status 3".into(),
            },
            Verdict::Protocol {
                detail: "exited before replying (exit status 0)".into(),
            },
        ] {
            let record = CaseRecord::new(solitaire(), &outcome(verdict), Some(87.5));
            let line = record.to_line();
            assert!(!line.contains('\n'));
            assert_eq!(CaseRecord::from_line(&line), Ok(record), "{line}");
        }
    }

    #[test]
    fn the_line_has_the_documented_fields() {
        let line = CaseRecord::new(
            solitaire(),
            &outcome(Verdict::invalid("Z9", "bad row")),
            None,
        )
        .to_line();
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["game"], "solitaire");
        assert_eq!(value["seed"], 12);
        assert_eq!(value["case"], "g6-1");
        assert_eq!(value["group"], 6);
        assert_eq!(value["params"]["alphabet"], "1234tlds");
        assert_eq!(value["score"], 40.5);
        assert_eq!(value["moves"], 10);
        assert_eq!(value["time_ms"], 1500);
        assert_eq!(value["verdict"], "invalid");
        assert_eq!(value["line"], "Z9");
        assert_eq!(value["line_bytes"], 2);
        assert_eq!(value["reason"], "bad row");
        assert_eq!(value["metrics"]["points"], 13.0);
        assert!(value.get("relative").is_none());
    }

    #[test]
    fn a_plain_seed_has_no_case_field_and_is_keyed_by_its_seed() {
        let mut plain = outcome(Verdict::Ok);
        plain.case = CaseId::seed(17);
        let record = CaseRecord::new(solitaire(), &plain, None);
        assert!(!record.to_line().contains("\"case\""));
        assert_eq!(record.case_key(), "17");
    }

    #[test]
    fn a_cut_off_last_line_is_left_out_and_said() {
        let dir = std::env::temp_dir().join(format!("marathon-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.jsonl");
        let line = CaseRecord::new(solitaire(), &outcome(Verdict::Ok), None).to_line();
        std::fs::write(&path, format!("{line}\n{line}\n{}", &line[..20])).unwrap();
        let file = CaseRecord::read_file(&path).unwrap();
        assert_eq!(file.records.len(), 2);
        let torn = file.torn.expect("the cut is said");
        assert!(
            torn.contains("run.jsonl:3") && torn.contains("cut off"),
            "{torn}"
        );
        // A whole last record without its newline is a record.
        std::fs::write(&path, format!("{line}\n{line}")).unwrap();
        let file = CaseRecord::read_file(&path).unwrap();
        assert_eq!((file.records.len(), file.torn), (2, None));
        // A bad line that is not the last is an error, as is a bad last line with its newline.
        for text in [
            format!("{}\n{line}\n", &line[..20]),
            format!("{line}\nnot json\n"),
        ] {
            std::fs::write(&path, text).unwrap();
            assert!(CaseRecord::read_file(&path).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let error = CaseRecord::from_line(r#"{"game":"linez","seed":1}"#).unwrap_err();
        assert!(error.contains("missing field"), "{error}");
        assert!(CaseRecord::from_line("not json").is_err());
    }
}
