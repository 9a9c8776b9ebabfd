//! The wire format of Jupyter messages: framing, signing and JSON parts.
//!
//! A message on a socket is `[identities…, "<IDS|MSG>", signature, header, parent_header,
//! metadata, content, buffers…]`. The signature is the lowercase hex HMAC-SHA256, keyed with the
//! connection file's `key`, of the four JSON frames exactly as received; an empty key disables
//! signing. [`Codec`] turns frames into a [`Message`] (checking the signature in constant time
//! before parsing anything) and back, and stamps outgoing headers with this kernel's session id.
//! Nothing here panics on input from the wire: every defect is a [`WireError`].

use hmac::{Hmac, Mac};
use serde_json::{json, Map, Value};
use sha2::Sha256;
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// The frame separating routing identities from the message proper.
pub const DELIMITER: &[u8] = b"<IDS|MSG>";

/// The protocol version written into every header we send.
pub const PROTOCOL_VERSION: &str = "5.3";

/// One Jupyter message, with its JSON parts parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Routing identities (ROUTER sockets) or the topic (IOPub), copied into replies.
    pub identities: Vec<Vec<u8>>,
    /// The header: `msg_id`, `session`, `username`, `date`, `msg_type`, `version`.
    pub header: Value,
    /// The header of the request this message answers, or `{}`.
    pub parent_header: Value,
    /// Free-form metadata, usually `{}`.
    pub metadata: Value,
    /// The content, whose shape depends on the message type.
    pub content: Value,
    /// Binary buffers after the JSON frames (unsigned; only comms use them).
    pub buffers: Vec<Vec<u8>>,
}

impl Message {
    /// The message type named in the header (decoding guarantees there is one).
    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }

    /// A string field of the content, or `""`.
    pub fn str_field(&self, key: &str) -> &str {
        self.content[key].as_str().unwrap_or("")
    }

    /// A boolean field of the content, or `default` when absent or not a boolean.
    pub fn bool_field(&self, key: &str, default: bool) -> bool {
        self.content[key].as_bool().unwrap_or(default)
    }
}

/// Why a multipart message was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// No `<IDS|MSG>` frame.
    NoDelimiter,
    /// Fewer than the five frames (signature and four JSON parts) after the delimiter.
    MissingFrames(usize),
    /// The signature does not match the key (or is not hex).
    BadSignature,
    /// A JSON frame does not parse.
    BadJson {
        /// Which frame (`header`, `content`, ...).
        frame: &'static str,
        /// The parser's message.
        error: String,
    },
    /// A JSON frame is not an object.
    NotAnObject(&'static str),
    /// The header has no string `msg_type`.
    NoMsgType,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::NoDelimiter => write!(f, "no <IDS|MSG> delimiter"),
            WireError::MissingFrames(n) => write!(f, "only {n} of 5 frames after the delimiter"),
            WireError::BadSignature => write!(f, "invalid signature"),
            WireError::BadJson { frame, error } => {
                write!(f, "the {frame} is not valid JSON: {error}")
            }
            WireError::NotAnObject(frame) => write!(f, "the {frame} is not a JSON object"),
            WireError::NoMsgType => write!(f, "the header has no msg_type"),
        }
    }
}

/// HMAC-SHA256 over the four JSON frames; `None` when the key is empty (signing disabled).
#[derive(Clone)]
pub struct Signer {
    mac: Option<Hmac<Sha256>>,
}

impl Signer {
    /// A signer for `key` (its UTF-8 bytes, as Jupyter uses them).
    pub fn new(key: &str) -> Signer {
        let mac = (!key.is_empty()).then(|| {
            Hmac::<Sha256>::new_from_slice(key.as_bytes()).expect("HMAC accepts keys of any length")
        });
        Signer { mac }
    }

    /// The lowercase hex signature of `parts`, or `""` when signing is disabled.
    pub fn sign(&self, parts: &[&[u8]]) -> String {
        match &self.mac {
            None => String::new(),
            Some(mac) => {
                let mut mac = mac.clone();
                for part in parts {
                    mac.update(part);
                }
                hex(&mac.finalize().into_bytes())
            }
        }
    }

    /// Whether `signature` (hex) signs `parts`, compared in constant time.
    pub fn verify(&self, signature: &[u8], parts: &[&[u8]]) -> bool {
        let Some(mac) = &self.mac else { return true };
        let Some(expected) = unhex(signature) else {
            return false;
        };
        let mut mac = mac.clone();
        for part in parts {
            mac.update(part);
        }
        mac.verify_slice(&expected).is_ok()
    }
}

/// Encodes and decodes messages for one kernel process: its signer and its session id.
pub struct Codec {
    signer: Signer,
    session: String,
    username: String,
}

impl Codec {
    /// A codec signing with `key`, stamping headers with `session`.
    pub fn new(key: &str, session: String) -> Codec {
        Codec {
            signer: Signer::new(key),
            session,
            username: "difflab".into(),
        }
    }

    /// A fresh header for a message of type `msg_type`.
    pub fn header(&self, msg_type: &str) -> Value {
        json!({
            "msg_id": uuid::Uuid::new_v4().to_string(),
            "session": self.session,
            "username": self.username,
            "date": iso8601(SystemTime::now()),
            "msg_type": msg_type,
            "version": PROTOCOL_VERSION,
        })
    }

    /// A message of type `msg_type` whose parent is `parent_header` (`{}` for none).
    pub fn message(&self, parent_header: &Value, msg_type: &str, content: Value) -> Message {
        Message {
            identities: Vec::new(),
            header: self.header(msg_type),
            parent_header: parent_header.clone(),
            metadata: json!({}),
            content,
            buffers: Vec::new(),
        }
    }

    /// The reply to `request`: same identities, the request's header as parent.
    pub fn reply(&self, request: &Message, msg_type: &str, content: Value) -> Message {
        let mut reply = self.message(&request.header, msg_type, content);
        reply.identities = request.identities.clone();
        reply
    }

    /// The frames of `message`, signed.
    pub fn encode(&self, message: &Message) -> Vec<Vec<u8>> {
        let parts = [
            &message.header,
            &message.parent_header,
            &message.metadata,
            &message.content,
        ]
        .map(|v| serde_json::to_vec(v).expect("JSON values serialize"));
        let signature = self.signer.sign(&parts.each_ref().map(Vec::as_slice));
        let mut frames = message.identities.clone();
        frames.push(DELIMITER.to_vec());
        frames.push(signature.into_bytes());
        frames.extend(parts);
        frames.extend(message.buffers.iter().cloned());
        frames
    }

    /// The message in `frames`, after checking its signature.
    pub fn decode(&self, mut frames: Vec<Vec<u8>>) -> Result<Message, WireError> {
        let at = frames
            .iter()
            .position(|f| f == DELIMITER)
            .ok_or(WireError::NoDelimiter)?;
        let after = frames.len() - at - 1;
        if after < 5 {
            return Err(WireError::MissingFrames(after));
        }
        let buffers = frames.split_off(at + 6);
        let rest = frames.split_off(at);
        let identities = frames;
        let (signature, json) = (&rest[1], &rest[2..6]);
        let parts = [&json[0][..], &json[1][..], &json[2][..], &json[3][..]];
        if !self.signer.verify(signature, &parts) {
            return Err(WireError::BadSignature);
        }
        let header = object("header", parts[0])?;
        if !header["msg_type"].is_string() {
            return Err(WireError::NoMsgType);
        }
        Ok(Message {
            identities,
            header,
            parent_header: object("parent_header", parts[1])?,
            metadata: object("metadata", parts[2])?,
            content: object("content", parts[3])?,
            buffers,
        })
    }
}

/// Parses one JSON frame that must hold an object.
fn object(frame: &'static str, bytes: &[u8]) -> Result<Value, WireError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| WireError::BadJson {
        frame,
        error: e.to_string(),
    })?;
    match value {
        Value::Object(_) => Ok(value),
        // Some clients send `null` for an absent parent or metadata.
        Value::Null if frame != "header" && frame != "content" => Ok(Value::Object(Map::new())),
        _ => Err(WireError::NotAnObject(frame)),
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

fn unhex(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// `time` as an ISO 8601 UTC timestamp with microseconds (`2024-05-01T12:00:00.000000Z`).
pub fn iso8601(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        since.subsec_micros()
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn codec(key: &str) -> Codec {
        Codec::new(key, "kernel-session".into())
    }

    fn request(codec: &Codec) -> Vec<Vec<u8>> {
        let mut msg = codec.message(&json!({}), "execute_request", json!({"code": "x = 1"}));
        msg.identities = vec![b"client-id".to_vec()];
        codec.encode(&msg)
    }

    #[test]
    fn signs_the_rfc_4231_vector() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        let signer = Signer::new("Jefe");
        let expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assert_eq!(
            signer.sign(&[b"what do ya want ", b"for nothing?"]),
            expected
        );
        assert!(signer.verify(expected.as_bytes(), &[b"what do ya want for nothing?"]));
    }

    #[test]
    fn empty_key_disables_signing() {
        let signer = Signer::new("");
        assert_eq!(signer.sign(&[b"anything"]), "");
        assert!(signer.verify(b"", &[b"anything"]));
    }

    #[test]
    fn frames_round_trip() {
        let codec = codec("secret");
        let frames = request(&codec);
        assert_eq!(frames[0], b"client-id");
        assert_eq!(frames[1], DELIMITER);
        assert_eq!(frames[2].len(), 64);
        let msg = codec.decode(frames.clone()).unwrap();
        assert_eq!(msg.identities, vec![b"client-id".to_vec()]);
        assert_eq!(msg.msg_type(), "execute_request");
        assert_eq!(msg.str_field("code"), "x = 1");
        assert_eq!(msg.header["session"], "kernel-session");
        assert_eq!(msg.header["version"], PROTOCOL_VERSION);
        assert_eq!(codec.encode(&msg), frames);
    }

    #[test]
    fn replies_keep_identities_and_parent() {
        let codec = codec("secret");
        let request = codec.decode(request(&codec)).unwrap();
        let reply = codec.reply(&request, "execute_reply", json!({"status": "ok"}));
        assert_eq!(reply.identities, request.identities);
        assert_eq!(reply.parent_header, request.header);
        assert_ne!(reply.header["msg_id"], request.header["msg_id"]);
    }

    #[test]
    fn buffers_are_kept_and_unsigned() {
        let codec = codec("secret");
        let mut frames = request(&codec);
        frames.push(b"binary".to_vec());
        let msg = codec.decode(frames).unwrap();
        assert_eq!(msg.buffers, vec![b"binary".to_vec()]);
    }

    #[test]
    fn rejects_a_wrong_key() {
        let frames = request(&codec("not the key"));
        assert_eq!(codec("secret").decode(frames), Err(WireError::BadSignature));
    }

    #[test]
    fn rejects_a_tampered_content() {
        let codec = codec("secret");
        let mut frames = request(&codec);
        let last = frames.len() - 1;
        frames[last] = br#"{"code": "global marker = 1"}"#.to_vec();
        assert_eq!(codec.decode(frames), Err(WireError::BadSignature));
    }

    #[test]
    fn rejects_a_missing_or_malformed_signature() {
        let codec = codec("secret");
        for signature in [&b""[..], b"zz", b"abc", &[0xff, 0xfe]] {
            let mut frames = request(&codec);
            frames[2] = signature.to_vec();
            assert_eq!(codec.decode(frames), Err(WireError::BadSignature));
        }
    }

    #[test]
    fn rejects_malformed_frames() {
        let codec = codec("");
        assert_eq!(codec.decode(vec![]), Err(WireError::NoDelimiter));
        assert_eq!(
            codec.decode(vec![b"id".to_vec(), b"junk".to_vec()]),
            Err(WireError::NoDelimiter)
        );
        let short = vec![DELIMITER.to_vec(), vec![], b"{}".to_vec()];
        assert_eq!(codec.decode(short), Err(WireError::MissingFrames(2)));
        let frames = |header: &[u8], content: &[u8]| {
            vec![
                DELIMITER.to_vec(),
                vec![],
                header.to_vec(),
                b"{}".to_vec(),
                b"{}".to_vec(),
                content.to_vec(),
            ]
        };
        assert!(matches!(
            codec.decode(frames(b"{", b"{}")),
            Err(WireError::BadJson {
                frame: "header",
                ..
            })
        ));
        assert_eq!(
            codec.decode(frames(b"[]", b"{}")),
            Err(WireError::NotAnObject("header"))
        );
        assert_eq!(
            codec.decode(frames(b"{}", b"{}")),
            Err(WireError::NoMsgType)
        );
        assert_eq!(
            codec.decode(frames(br#"{"msg_type": "x"}"#, b"3")),
            Err(WireError::NotAnObject("content"))
        );
        assert!(matches!(
            codec.decode(frames(br#"{"msg_type": "x"}"#, b"\xff")),
            Err(WireError::BadJson {
                frame: "content",
                ..
            })
        ));
        assert!(codec.decode(frames(br#"{"msg_type": "x"}"#, b"{}")).is_ok());
    }

    #[test]
    fn formats_dates() {
        let at = |secs, micros| {
            iso8601(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_micros(micros))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.000005Z");
        assert_eq!(at(1_700_000_000, 123_456), "2023-11-14T22:13:20.123456Z");
    }
}
