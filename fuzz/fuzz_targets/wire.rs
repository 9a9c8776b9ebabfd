//! Fuzz target: the kernel's decoding of what arrives from outside never panics — message
//! frames (identities, delimiter, signature, the four JSON parts, buffers) with and without a
//! signing key, re-encoding what decodes, and the connection file.
#![no_main]

#[path = "../../kernel/src/wire.rs"]
#[allow(dead_code)]
mod wire;

#[path = "../../kernel/src/connection.rs"]
#[allow(dead_code)]
mod connection;

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Input {
    /// Frames for a codec without a key (signatures off, so the JSON parts are parsed).
    Unsigned(Vec<Vec<u8>>),
    /// Frames for a codec with a key: only the signature check and framing are reached.
    Signed(Vec<Vec<u8>>),
    /// Frames around a delimiter, with JSON texts for the four parts.
    Parts {
        identities: Vec<Vec<u8>>,
        json: [String; 4],
        buffers: Vec<Vec<u8>>,
    },
    /// A connection file's text.
    Connection(String),
}

fuzz_target!(|input: Input| {
    match input {
        Input::Unsigned(frames) => decode("", frames),
        Input::Signed(frames) => decode("a key", frames),
        Input::Parts {
            identities,
            json,
            buffers,
        } => {
            let mut frames = identities;
            frames.push(wire::DELIMITER.to_vec());
            frames.push(Vec::new());
            frames.extend(json.into_iter().map(String::into_bytes));
            frames.extend(buffers);
            decode("", frames);
        }
        Input::Connection(text) => {
            let _ = connection::ConnectionInfo::parse(&text);
        }
    }
});

fn decode(key: &str, frames: Vec<Vec<u8>>) {
    let codec = wire::Codec::new(key, "fuzz".into());
    if let Ok(message) = codec.decode(frames) {
        let _ = message.msg_type();
        let _ = message.str_field("code");
        let _ = message.bool_field("silent", false);
        let again = codec.decode(codec.encode(&message));
        assert!(again.is_ok(), "an encoded message decodes");
    }
}
