//! Several charts stacked into one SVG document.

use crate::plot::charts::SIZE;

/// Charts stacked top to bottom in one standalone SVG document (each keeps
/// its own size; the document is as wide as the widest).
pub fn panels(charts: &[String]) -> String {
    let dims: Vec<(u32, u32)> = charts.iter().map(|c| svg_size(c)).collect();
    let width = dims.iter().map(|d| d.0).max().unwrap_or(0);
    let height: u32 = dims.iter().map(|d| d.1).sum();
    let mut s = format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let mut y = 0;
    for (c, (_, h)) in charts.iter().zip(&dims) {
        let body = match c.find("<svg") {
            Some(i) => &c[i..],
            None => c.as_str(),
        };
        s += &format!(
            "<g transform=\"translate(0,{y})\">\n{}\n</g>\n",
            body.trim_end()
        );
        y += h;
    }
    s += "</svg>\n";
    s
}

/// The `width` and `height` attributes of an SVG document's root element
/// ([`SIZE`] when absent).
fn svg_size(svg: &str) -> (u32, u32) {
    let Some(root) = svg.find("<svg").map(|i| &svg[i..]) else {
        return SIZE;
    };
    let head = &root[..root.find('>').unwrap_or(root.len())];
    let attr = |name: &str| -> Option<u32> {
        let v = head
            .split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?;
        v.parse().ok()
    };
    (
        attr("width").unwrap_or(SIZE.0),
        attr("height").unwrap_or(SIZE.1),
    )
}
