//! Reading OpenSTA's `report_checks` path reports.

use super::netlist::plain_name;
use super::report::{EndpointKind, PathEndpoint, PathPoint, TimingPath};
use crate::error::EdaError;

fn endpoint(line: &str, what: &str) -> Result<PathEndpoint, EdaError> {
    let (name, desc) = match line.split_once(" (") {
        Some((n, d)) => (n.trim(), d.trim().trim_end_matches(')').to_string()),
        None => (line.trim(), String::new()),
    };
    if name.is_empty() {
        return Err(EdaError::parse(what, format!("empty name in `{line}`")));
    }
    let kind = if desc.starts_with("input port") {
        EndpointKind::InputPort
    } else if desc.starts_with("output port") {
        EndpointKind::OutputPort
    } else if desc.contains("flip-flop") {
        EndpointKind::FlipFlop
    } else {
        EndpointKind::Other
    };
    Ok(PathEndpoint {
        kind,
        name: plain_name(name),
        cell: None,
        register: None,
        description: desc,
    })
}

/// One line of an OpenSTA path report: the leading numbers, then the rest.
fn split_numbers(line: &str) -> (Vec<f64>, Vec<&str>) {
    let mut nums = Vec::new();
    let mut words = line.split_whitespace().peekable();
    while let Some(v) = words.peek().and_then(|w| w.parse::<f64>().ok()) {
        nums.push(v);
        words.next();
    }
    (nums, words.collect())
}

/// Parses the first path of `report_checks -path_delay max -fields {cap slew
/// input_pins}` output.
pub(crate) fn parse_path(text: &str, period_ns: f64, what: &str) -> Result<TimingPath, EdaError> {
    let err = |d: String| EdaError::parse(what, d);
    let lines: Vec<&str> = text.lines().collect();
    let find = |prefix: &str| {
        lines
            .iter()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .map(str::trim)
    };
    let mut start = endpoint(
        find("Startpoint:").ok_or_else(|| err(format!("no Startpoint in:\n{text}")))?,
        what,
    )?;
    let mut end = endpoint(
        find("Endpoint:").ok_or_else(|| err(format!("no Endpoint in:\n{text}")))?,
        what,
    )?;
    let body_start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("---"))
        .ok_or_else(|| err("no table in the report".to_string()))?
        + 1;
    let arrival_at = lines[body_start..]
        .iter()
        .position(|l| l.contains("data arrival time"))
        .ok_or_else(|| err("no data arrival time".to_string()))?
        + body_start;
    let (nums, _) = split_numbers(lines[arrival_at]);
    let delay_ns = *nums
        .last()
        .ok_or_else(|| err("no value on the data arrival time line".to_string()))?;

    // The data path: lines "[cap] slew incr time ^|v NAME (TYPE)".
    let points = data_path(&lines[body_start..arrival_at], what)?;
    for (ep, pt) in [(&mut start, points.first()), (&mut end, points.last())] {
        if let Some(pt) = pt {
            if pt.cell.is_some() && pt.instance == ep.name {
                ep.cell.clone_from(&pt.cell);
            }
        }
    }
    let levels = logic_levels(&points, &start);

    // The required-time side: capture edge, setup, required time, slack.
    let (capture, required, slack_ns) = required_side(&lines[arrival_at + 1..], what)?;
    let setup_ns = capture - required;
    let min_period_ns = period_ns - slack_ns;
    let fmax_mhz = (min_period_ns > 0.0).then(|| 1000.0 / min_period_ns);
    Ok(TimingPath {
        start,
        end,
        delay_ns,
        setup_ns,
        slack_ns,
        min_period_ns,
        fmax_mhz,
        levels,
        points,
    })
}

/// The points of the data path from the table lines before "data arrival
/// time" (`[cap] slew incr time ^|v NAME (TYPE)`): a cell's input and output
/// pins make one point; clock lines and the input external delay are skipped.
fn data_path(lines: &[&str], what: &str) -> Result<Vec<PathPoint>, EdaError> {
    let err = |d: String| EdaError::parse(what, d);
    let mut points: Vec<PathPoint> = Vec::new();
    for line in lines {
        let (nums, words) = split_numbers(line);
        let rising = match words.first() {
            Some(&"^") => true,
            Some(&"v") => false,
            _ => continue, // clock lines
        };
        let desc = words[1..].join(" ");
        if desc == "input external delay" {
            continue;
        }
        if nums.len() < 3 {
            return Err(err(format!("too few numbers in `{line}`")));
        }
        let (incr, time, slew) = (
            nums[nums.len() - 2],
            nums[nums.len() - 1],
            nums[nums.len() - 3],
        );
        let load = (nums.len() >= 4).then(|| nums[nums.len() - 4]);
        let (name, kind) = desc
            .rsplit_once(" (")
            .map(|(n, k)| (n.trim(), k.trim_end_matches(')')))
            .ok_or_else(|| err(format!("no (type) in `{line}`")))?;
        if kind == "in" || kind == "out" {
            points.push(PathPoint {
                instance: plain_name(name),
                cell: None,
                input_pin: (kind == "out").then(|| plain_name(name)),
                output_pin: (kind == "in").then(|| plain_name(name)),
                rising,
                incr_ns: incr,
                arrival_ns: time,
                slew_ns: Some(slew),
                load_ff: load,
            });
            continue;
        }
        let (inst, pin) = name
            .rsplit_once('/')
            .ok_or_else(|| err(format!("no instance/pin in `{line}`")))?;
        let inst = plain_name(inst);
        // Driver pins carry a load (the Cap column); input pins do not.
        let is_output = load.is_some();
        match points.last_mut() {
            Some(p)
                if p.instance == inst
                    && p.cell.as_deref() == Some(kind)
                    && p.output_pin.is_none() =>
            {
                if is_output {
                    p.output_pin = Some(pin.to_string());
                    p.load_ff = load;
                } else {
                    p.input_pin = Some(pin.to_string());
                }
                p.rising = rising;
                p.incr_ns += incr;
                p.arrival_ns = time;
                p.slew_ns = Some(slew);
            }
            _ => points.push(PathPoint {
                instance: inst,
                cell: Some(kind.to_string()),
                input_pin: (!is_output).then(|| pin.to_string()),
                output_pin: is_output.then(|| pin.to_string()),
                rising,
                incr_ns: incr,
                arrival_ns: time,
                slew_ns: Some(slew),
                load_ff: load,
            }),
        }
    }
    if points.is_empty() {
        return Err(err("no points on the data path".to_string()));
    }
    Ok(points)
}

/// Logic levels: cells on the data path that drive an output pin, excluding
/// the launching flip-flop.
fn logic_levels(points: &[PathPoint], start: &PathEndpoint) -> u32 {
    points
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            p.cell.is_some()
                && p.output_pin.is_some()
                && !(*i == 0 && start.kind != EndpointKind::InputPort && p.instance == start.name)
        })
        .count() as u32
}

/// The required-time side of a report, from the lines after "data arrival
/// time": the capture clock edge, the data required time and the slack.
fn required_side(lines: &[&str], what: &str) -> Result<(f64, f64, f64), EdaError> {
    let err = |d: String| EdaError::parse(what, d);
    let mut capture = None;
    let mut required = None;
    let mut slack = None;
    for line in lines {
        let (nums, words) = split_numbers(line);
        let desc = words.join(" ");
        if desc.starts_with("clock ") {
            capture = nums.last().copied();
        } else if desc.starts_with("data required time") && required.is_none() {
            required = nums.last().copied();
        } else if desc.starts_with("slack") {
            slack = nums.first().copied();
            break;
        }
    }
    let capture = capture.ok_or_else(|| err("no capture clock edge".to_string()))?;
    let required = required.ok_or_else(|| err("no data required time".to_string()))?;
    let slack_ns = slack.ok_or_else(|| err("no slack".to_string()))?;
    Ok((capture, required, slack_ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    const REG2REG: &str = "\
Startpoint: _5_ (rising edge-triggered flip-flop clocked by clk)
Endpoint: _6_ (rising edge-triggered flip-flop clocked by clk)
Path Group: clk
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
             0.0000    0.0000    0.0000 ^ _5_/CK (DFF_X1)
   2.6733    0.0101    0.0873    0.0873 ^ _5_/Q (DFF_X1)
             0.0101    0.0000    0.0874 ^ _3_/B (XOR2_X1)
   1.9739    0.0225    0.0457    0.1330 ^ _3_/Z (XOR2_X1)
             0.0225    0.0000    0.1330 ^ _4_/A2 (NAND2_X1)
   1.3721    0.0072    0.0154    0.1485 v _4_/ZN (NAND2_X1)
             0.0072    0.0000    0.1485 v _6_/D (DFF_X1)
                                 0.1485   data arrival time

             0.0000   10.0000   10.0000   clock clk (rise edge)
                       0.0000   10.0000   clock network delay (ideal)
                       0.0000   10.0000   clock reconvergence pessimism
                                10.0000 ^ _6_/CK (DFF_X1)
                      -0.0397    9.9603   library setup time
                                 9.9603   data required time
-------------------------------------------------------------------------------
                                 9.9603   data required time
                                -0.1485   data arrival time
-------------------------------------------------------------------------------
                                 9.8119   slack (MET)
";

    const IN2OUT: &str = "\
Startpoint: a (input port clocked by clk)
Endpoint: y (output port clocked by clk)
Path Group: clk
Path Type: max

      Cap      Slew     Delay      Time   Description
-------------------------------------------------------------------------------
             0.0000    0.0000    0.0000   clock clk (rise edge)
                       0.0000    0.0000   clock network delay (ideal)
                       0.0000    0.0000 ^ input external delay
   1.6735    0.0000    0.0000    0.0000 ^ a (in)
             0.0000    0.0000    0.0000 ^ _0_/A2 (AND2_X1)
   0.3097    0.0056    0.0236    0.0236 ^ _0_/ZN (AND2_X1)
             0.0056    0.0000    0.0236 ^ y (out)
                                 0.0236   data arrival time

             0.0000   10.0000   10.0000   clock clk (rise edge)
                       0.0000   10.0000   clock network delay (ideal)
                       0.0000   10.0000   clock reconvergence pessimism
                       0.0000   10.0000   output external delay
                                10.0000   data required time
-------------------------------------------------------------------------------
                                10.0000   data required time
                                -0.0236   data arrival time
-------------------------------------------------------------------------------
                                 9.9764   slack (MET)
";

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn register_to_register_report() {
        let p = parse_path(REG2REG, 10.0, "t").unwrap();
        assert_eq!(p.start.kind, EndpointKind::FlipFlop);
        assert_eq!(p.start.name, "_5_");
        assert_eq!(p.start.cell.as_deref(), Some("DFF_X1"));
        assert_eq!(p.end.name, "_6_");
        assert_eq!(p.end.cell.as_deref(), Some("DFF_X1"));
        assert_eq!(p.levels, 2);
        assert_eq!(p.points.len(), 4);
        let xor = &p.points[1];
        assert_eq!(xor.cell.as_deref(), Some("XOR2_X1"));
        assert_eq!(xor.input_pin.as_deref(), Some("B"));
        assert_eq!(xor.output_pin.as_deref(), Some("Z"));
        assert!(close(xor.incr_ns, 0.0457) && close(xor.arrival_ns, 0.1330));
        assert_eq!(xor.load_ff, Some(1.9739));
        assert!(!p.points[2].rising);
        assert_eq!(p.points[3].input_pin.as_deref(), Some("D"));
        assert!(close(p.delay_ns, 0.1485));
        assert!(close(p.setup_ns, 0.0397));
        assert!(close(p.slack_ns, 9.8119));
        assert!(close(p.min_period_ns, 0.1881));
        assert!(close(p.fmax_mhz.unwrap(), 1000.0 / 0.1881));
    }

    #[test]
    fn port_to_port_report() {
        let p = parse_path(IN2OUT, 10.0, "t").unwrap();
        assert_eq!(p.start.kind, EndpointKind::InputPort);
        assert_eq!(p.end.kind, EndpointKind::OutputPort);
        assert_eq!((p.start.name.as_str(), p.end.name.as_str()), ("a", "y"));
        assert_eq!(p.levels, 1);
        assert!(close(p.setup_ns, 0.0));
        assert!(close(p.min_period_ns, 0.0236));
        assert!(parse_path("No paths found.\n", 10.0, "t").is_err());
        assert!(parse_path(&REG2REG[..600], 10.0, "t").is_err());
    }
}
