//! `application/x-www-form-urlencoded` bodies (the sign-in and sign-out forms).

/// The value of field `name`, percent-decoded (`+` is a space); `None` when absent or not
/// valid UTF-8 after decoding.
pub fn field(body: &[u8], name: &str) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?;
    text.split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| decode(key).as_deref() == Some(name))
        .and_then(|(_, value)| decode(value))
}

fn decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = raw.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_and_decoded() {
        let body = b"csrf=abc&token=a%2Bb+c%C3%A9&empty=";
        assert_eq!(field(body, "token").as_deref(), Some("a+b cé"));
        assert_eq!(field(body, "csrf").as_deref(), Some("abc"));
        assert_eq!(field(body, "empty").as_deref(), Some(""));
        assert_eq!(field(body, "missing"), None);
        assert_eq!(field(b"token=%zz", "token"), None);
        assert_eq!(field(b"token=%C3", "token"), None);
    }
}
