//! az_plot — a training run's curves as SVG: losses, and mistakes against perfect play of
//! successive checkpoints, against games and against training time. See [`USAGE`].

use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tools::cli;

const USAGE: &str = "\
az_plot: a training run's curves as SVG

usage: az_plot --dir DIR --out FOLDER [--name NAME]

  --dir DIR      the run (az_train --dir): reads log.csv, and strength.csv when az_eval
                 --curve DIR has written it
  --out FOLDER   where the SVGs go: NAME-losses.svg, and NAME-mistakes.svg (mistake
                 rate of the checkpoints against games) and NAME-mistakes-time.svg
                 (against hours of training) when there is a strength.csv, or when
                 log.csv has a mistakes column (tic-tac-toe)
  --name NAME    file name prefix (default: the run folder's name)
";

/// A CSV file with a header: the named columns as numbers.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<f64>>,
}

impl Table {
    fn read(path: &Path) -> Result<Table, String> {
        let text = cli::read_text(path)?;
        let mut lines = text.lines();
        let header: Vec<String> = lines
            .next()
            .ok_or_else(|| format!("{}: empty", path.display()))?
            .split(',')
            .map(String::from)
            .collect();
        let mut rows = Vec::new();
        for (i, line) in lines.enumerate() {
            let row: Result<Vec<f64>, _> = line.split(',').map(str::parse).collect();
            let row = row.map_err(|_| {
                format!("{}: line {}: not numbers: {line:?}", path.display(), i + 2)
            })?;
            if row.len() != header.len() {
                return Err(format!(
                    "{}: line {}: {} fields, the header has {}",
                    path.display(),
                    i + 2,
                    row.len(),
                    header.len()
                ));
            }
            rows.push(row);
        }
        Ok(Table { header, rows })
    }

    fn column(&self, name: &str) -> Option<Vec<f64>> {
        let k = self.header.iter().position(|h| h == name)?;
        Some(self.rows.iter().map(|r| r[k]).collect())
    }
}

type Series = (String, Vec<(f64, f64)>);
/// A named column of values.
type Column = (String, Vec<f64>);

/// One line chart with a legend, written to `path`.
fn chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let points = series.iter().flat_map(|(_, s)| s.iter());
    let (mut x_max, mut y_max) = (1e-9f64, 1e-9f64);
    for &(x, y) in points {
        x_max = x_max.max(x);
        y_max = y_max.max(y);
    }
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut c = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..x_max * 1.02, 0.0..y_max * 1.08)
        .map_err(|e| fail(&e))?;
    c.configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| fail(&e))?;
    for (i, (name, s)) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        c.draw_series(LineSeries::new(s.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
    }
    c.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

fn zip(x: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    x.iter().copied().zip(y.iter().copied()).collect()
}

fn main() -> ExitCode {
    cli::main("az_plot", USAGE, run)
}

fn run() -> Result<(), String> {
    let (mut dir, mut out, mut name) = (None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--dir" => {
                dir = Some(PathBuf::from(cli::text(&flag, args.next())?));
            }
            "--out" => {
                out = Some(PathBuf::from(cli::text(&flag, args.next())?));
            }
            "--name" => name = Some(cli::text(&flag, args.next())?),
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let dir = dir.ok_or("--dir is required")?;
    let out = out.ok_or("--out is required")?;
    let name = name.unwrap_or_else(|| {
        dir.file_name()
            .map_or("run".into(), |n| n.to_string_lossy().into_owned())
    });
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let log = Table::read(&dir.join("log.csv"))?;
    let missing = |c: &str| format!("{}: no column {c}", dir.join("log.csv").display());
    let games = log.column("games").ok_or_else(|| missing("games"))?;
    let policy = log
        .column("policy_loss")
        .ok_or_else(|| missing("policy_loss"))?;
    let value = log
        .column("value_loss")
        .ok_or_else(|| missing("value_loss"))?;
    let written = out.join(format!("{name}-losses.svg"));
    chart(
        &written,
        &format!("{name}: training loss per generation"),
        "self-play games",
        "loss",
        &[
            ("policy cross-entropy".into(), zip(&games, &policy)),
            ("value MSE".into(), zip(&games, &value)),
        ],
    )?;
    eprintln!("az_plot: wrote {}", written.display());

    let strength = dir.join("strength.csv");
    // x by games, x by hours, and each curve's name and values.
    let (x_games, x_hours, series): (Vec<f64>, Vec<f64>, Vec<Column>) = if strength.exists() {
        let t = Table::read(&strength)?;
        let col = |c: &str| {
            t.column(c)
                .ok_or_else(|| format!("{}: no column {c}", strength.display()))
        };
        let g = col("games")?;
        let h: Vec<f64> = col("seconds")?.iter().map(|s| s / 3600.0).collect();
        let series = t
            .header
            .iter()
            .filter_map(|c| {
                c.strip_suffix("_mistakes")
                    .map(|p| (p.to_string(), c.clone()))
            })
            .map(|(p, c)| Ok((p, col(&c)?)))
            .collect::<Result<_, String>>()?;
        (g, h, series)
    } else if let Some(m) = log
        .column("mistakes")
        .filter(|m| m.iter().any(|&v| v > 0.0))
    {
        let seconds = log.column("seconds").ok_or_else(|| missing("seconds"))?;
        // Tic-tac-toe: mistakes over all 4,520 positions, as a percentage.
        let rate = m.iter().map(|v| 100.0 * v / 4520.0).collect();
        (
            games.clone(),
            seconds.iter().map(|s| s / 3600.0).collect(),
            vec![("raw policy".into(), rate)],
        )
    } else {
        return Ok(());
    };
    for (x, label, file) in [
        (&x_games, "self-play games", "mistakes"),
        (&x_hours, "hours of training", "mistakes-time"),
    ] {
        let written = out.join(format!("{name}-{file}.svg"));
        let lines: Vec<Series> = series.iter().map(|(p, y)| (p.clone(), zip(x, y))).collect();
        chart(
            &written,
            &format!("{name}: mistakes against perfect play"),
            label,
            "mistakes (% of positions)",
            &lines,
        )?;
        eprintln!("az_plot: wrote {}", written.display());
    }
    Ok(())
}
