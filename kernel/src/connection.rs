//! The connection file a Jupyter client writes for a kernel: transport, address, the five
//! ports and the signing key. Unknown keys are ignored, as the spec asks.

use serde::Deserialize;
use std::path::Path;

/// The parsed connection file.
#[derive(Debug, Clone, Deserialize)]
pub struct ConnectionInfo {
    /// `tcp` or `ipc`.
    #[serde(default = "tcp")]
    pub transport: String,
    /// The address (`127.0.0.1`) or, for `ipc`, the path prefix.
    pub ip: String,
    /// Shell ROUTER port.
    pub shell_port: u16,
    /// IOPub PUB port.
    pub iopub_port: u16,
    /// Stdin ROUTER port.
    pub stdin_port: u16,
    /// Control ROUTER port.
    pub control_port: u16,
    /// Heartbeat REP port.
    pub hb_port: u16,
    /// The HMAC key; empty disables signing.
    #[serde(default)]
    pub key: String,
    /// The signing scheme; only `hmac-sha256` is supported.
    #[serde(default = "hmac_sha256")]
    pub signature_scheme: String,
}

fn tcp() -> String {
    "tcp".into()
}

fn hmac_sha256() -> String {
    "hmac-sha256".into()
}

impl ConnectionInfo {
    /// Reads and checks the connection file at `path`.
    pub fn load(path: &Path) -> Result<ConnectionInfo, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the connection file {}: {e}", path.display()))?;
        ConnectionInfo::parse(&text)
            .map_err(|e| format!("invalid connection file {}: {e}", path.display()))
    }

    /// Parses and checks a connection file's text.
    pub fn parse(text: &str) -> Result<ConnectionInfo, String> {
        let info: ConnectionInfo = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if !info.key.is_empty() && info.signature_scheme != "hmac-sha256" {
            return Err(format!(
                "unsupported signature scheme {:?} (only hmac-sha256)",
                info.signature_scheme
            ));
        }
        if info.transport != "tcp" && info.transport != "ipc" {
            return Err(format!("unsupported transport {:?}", info.transport));
        }
        Ok(info)
    }

    /// The ZeroMQ endpoint of `port` (`tcp://ip:port`, or `ipc://ip-port` as jupyter_client
    /// spells it).
    pub fn endpoint(&self, port: u16) -> String {
        match self.transport.as_str() {
            "ipc" => format!("ipc://{}-{port}", self.ip),
            _ => format!("tcp://{}:{port}", self.ip),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{
        "shell_port": 5001, "iopub_port": 5002, "stdin_port": 5003,
        "control_port": 5004, "hb_port": 5005, "ip": "127.0.0.1",
        "key": "a0436f6c-1916-498b-8eb9-e81ab9368e84", "transport": "tcp",
        "signature_scheme": "hmac-sha256", "kernel_name": "difflab"
    }"#;

    #[test]
    fn parses_a_jupyter_client_file() {
        let info = ConnectionInfo::parse(FILE).unwrap();
        assert_eq!(info.endpoint(info.shell_port), "tcp://127.0.0.1:5001");
        assert_eq!(info.hb_port, 5005);
        assert_eq!(info.key, "a0436f6c-1916-498b-8eb9-e81ab9368e84");
    }

    #[test]
    fn ipc_endpoints() {
        let text = FILE.replace(r#""transport": "tcp""#, r#""transport": "ipc""#);
        let text = text.replace("127.0.0.1", "/tmp/kernel");
        let info = ConnectionInfo::parse(&text).unwrap();
        assert_eq!(info.endpoint(5002), "ipc:///tmp/kernel-5002");
    }

    #[test]
    fn refuses_other_schemes_and_missing_ports() {
        let md5 = FILE.replace("hmac-sha256", "hmac-md5");
        assert!(ConnectionInfo::parse(&md5)
            .unwrap_err()
            .contains("hmac-md5"));
        let no_port = FILE.replace(r#""hb_port": 5005,"#, "");
        assert!(ConnectionInfo::parse(&no_port)
            .unwrap_err()
            .contains("hb_port"));
    }
}
