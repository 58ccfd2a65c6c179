//! The report's files: the claim table and the whole report as Markdown,
//! the HTML page with the figures inlined, `claims.json` and the SVG
//! figures.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::reproduce::claims::{Claim, Figure, Report};
use crate::reproduce::plan::{Options, QUICK};

/// The claim table as Markdown.
pub fn claims_markdown(claims: &[Claim]) -> String {
    let mut s = String::from("| paper | figure | claim | paper | ours | verdict | why |\n|---|---|---|---|---|---|---|\n");
    for c in claims {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | **{}** | {} |",
            c.paper.name(),
            c.figure,
            c.claim.replace('|', "/"),
            c.paper_value.replace('|', "/"),
            c.ours.replace('|', "/"),
            c.verdict.text(),
            c.why.replace('|', "/")
        );
    }
    s
}

/// The whole report as Markdown.
pub fn markdown(o: &Options, r: &Report, wall_seconds: Option<f64>) -> String {
    let mut s = String::from("# warpgen: the papers' results, reproduced\n\n");
    let _ = writeln!(
        s,
        "Made by `warpgen reproduce` ({} {}). {} runs{}; their own times sum to {:.0} s{}. \
         Sizes: {}. Every figure below is an SVG file beside this report; the HTML version \
         embeds them.\n",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
        r.runs,
        if r.refused.is_empty() {
            String::new()
        } else {
            format!(" ({} refused, listed at the end)", r.refused.len())
        },
        r.run_seconds,
        wall_seconds.map_or(String::new(), |w| format!(
            ", {w:.0} s of wall time on this machine"
        )),
        if o.full {
            "the kernel files' own (`--full`)".to_string()
        } else {
            format!(
                "the quick set: {} (`--full` for the files' own sizes)",
                QUICK
                    .iter()
                    .map(|(k, s)| format!("{k} {}", s.join(" ")))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        }
    );
    s += "## Claims\n\n";
    s += &claims_markdown(&r.claims);
    s += "\nVerdicts: *reproduced* meets the paper's claim (or the tolerance its row states); \
          *same direction* has the paper's sign, not its size (a change under 1 % counts as none); *not reproduced* has the \
          opposite sign or no effect; *not built* has no model in the project yet.\n\n";
    for sec in &r.sections {
        s += sec;
    }
    if !r.refused.is_empty() {
        s += "## Runs that did not run\n\n";
        for (id, e) in &r.refused {
            let _ = writeln!(s, "- `{id}`: {e}");
        }
        s.push('\n');
    }
    s
}

/// The report as one HTML page, figures inlined.
pub fn html(md: &str, figures: &[Figure]) -> String {
    use pulldown_cmark::{html::push_html, Options as MdOptions, Parser};
    let mut body = String::new();
    push_html(&mut body, Parser::new_ext(md, MdOptions::ENABLE_TABLES));
    for f in figures {
        let img = format!(
            "<img src=\"{}\" alt=\"{}\" />",
            f.file,
            html_escape(&f.caption)
        );
        let svg = f.svg.trim_start_matches(|c| c != '<');
        let svg = match svg.find("<svg") {
            Some(i) => &svg[i..],
            None => svg,
        };
        body = body.replace(&img, &format!("<figure>{svg}</figure>"));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>warpgen: the papers' results, reproduced</title>\n\
         <style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;line-height:1.4}}\
         table{{border-collapse:collapse;margin:1em 0;font-size:0.9em}}td,th{{border:1px solid #ccc;padding:0.25em 0.5em}}\
         th{{background:#f4f4f4}}figure{{margin:1em 0}}figure svg{{max-width:100%;height:auto}}code{{background:#f4f4f4}}</style>\n\
         </head><body>\n{body}</body></html>\n"
    )
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Write the report's files into `out`: `report.md`, `report.html`,
/// `claims.json` and the figures. Returns the paths.
pub fn write(
    o: &Options,
    out: &Path,
    r: &Report,
    wall_seconds: Option<f64>,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let md = markdown(o, r, wall_seconds);
    let mut written = Vec::new();
    let mut put = |name: &str, text: &str| -> anyhow::Result<()> {
        let p = out.join(name);
        // A regular file is replaced atomically; a symlink, FIFO or device
        // is written through, never replaced (`crate::output`).
        crate::output::OutputFile::prepare(&p, "the reproduction report's file")?
            .write_bytes(text.as_bytes())?;
        written.push(p);
        Ok(())
    };
    for f in &r.figures {
        put(&f.file, &f.svg)?;
    }
    put("report.md", &md)?;
    put("report.html", &html(&md, &r.figures))?;
    put("claims.json", &serde_json::to_string_pretty(&r.claims)?)?;
    Ok(written)
}
