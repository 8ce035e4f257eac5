//! Reads Python's `float.hex()` text (`-0x1.fca2a28a9307cp-2`) exactly, so reference values
//! computed by numpy can be compared bit for bit.

pub fn parse(text: &str) -> f64 {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = rest
        .strip_prefix("0x")
        .unwrap_or_else(|| panic!("not a hex float: {text}"));
    let (mantissa, exponent) = rest
        .split_once('p')
        .unwrap_or_else(|| panic!("no exponent: {text}"));
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let bits = u64::from_str_radix(&digits, 16).unwrap_or_else(|_| panic!("bad digits: {text}"));
    let exponent: i32 = exponent
        .parse()
        .unwrap_or_else(|_| panic!("bad exponent: {text}"));
    // At most 53 significant bits: the conversion and the power-of-two scaling are exact.
    let value = bits as f64 * 2f64.powi(exponent - 4 * frac.len() as i32);
    if negative {
        -value
    } else {
        value
    }
}
