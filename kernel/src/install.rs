//! `difflab-kernel install`: writes the kernelspec directory `difflab` (kernel.json and the
//! logos in `kernel/resources/`) where Jupyter looks for kernels.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The kernel's name: the kernelspec directory, and what notebooks refer to.
pub const KERNEL_NAME: &str = "difflab";

const RESOURCES: &[(&str, &[u8])] = &[
    (
        "logo-32x32.png",
        include_bytes!("../resources/logo-32x32.png"),
    ),
    (
        "logo-64x64.png",
        include_bytes!("../resources/logo-64x64.png"),
    ),
    ("logo-svg.svg", include_bytes!("../resources/logo-svg.svg")),
];

/// Where to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The user's Jupyter data directory.
    User,
    /// The active Python environment (`$VIRTUAL_ENV`, else `python3`'s `sys.prefix`).
    SysPrefix,
    /// `DIR/share/jupyter/kernels`.
    Prefix(PathBuf),
}

/// The `kernels` directory of `target`.
pub fn kernels_dir(target: &Target) -> Result<PathBuf, String> {
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    match target {
        Target::Prefix(dir) => Ok(dir.join("share/jupyter/kernels")),
        Target::SysPrefix => {
            let prefix = match env("VIRTUAL_ENV") {
                Some(p) => p,
                None => python_prefix()?,
            };
            Ok(prefix.join("share/jupyter/kernels"))
        }
        Target::User => {
            // As jupyter_core's `jupyter_data_dir`.
            if let Some(dir) = env("JUPYTER_DATA_DIR") {
                return Ok(dir.join("kernels"));
            }
            let home = env("HOME").ok_or("HOME is not set; use --prefix DIR")?;
            let data = if cfg!(target_os = "macos") {
                home.join("Library/Jupyter")
            } else {
                env("XDG_DATA_HOME")
                    .unwrap_or_else(|| home.join(".local/share"))
                    .join("jupyter")
            };
            Ok(data.join("kernels"))
        }
    }
}

fn python_prefix() -> Result<PathBuf, String> {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .map_err(|e| format!("cannot run python3 to find sys.prefix ({e}); use --prefix DIR"))?;
    let prefix = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || prefix.is_empty() {
        return Err("python3 did not report sys.prefix; use --prefix DIR".into());
    }
    Ok(PathBuf::from(prefix))
}

/// The content of kernel.json for the kernel binary at `exe`.
pub fn kernel_json(exe: &Path) -> Value {
    json!({
        "argv": [exe.to_string_lossy(), "--connection-file", "{connection_file}"],
        "display_name": "difflab",
        "language": "difflab",
        "interrupt_mode": "message",
        "kernel_protocol_version": crate::handlers::PROTOCOL,
        "metadata": {},
    })
}

/// Writes the kernelspec for this binary under `target`; the directory written.
pub fn install(target: &Target) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let dir = kernels_dir(target)?.join(KERNEL_NAME);
    write_spec(&dir, &exe)?;
    Ok(dir)
}

fn write_spec(dir: &Path, exe: &Path) -> Result<(), String> {
    let fail = |path: &Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let spec = serde_json::to_string_pretty(&kernel_json(exe)).expect("JSON values serialize");
    let path = dir.join("kernel.json");
    std::fs::write(&path, spec + "\n").map_err(|e| fail(&path, e))?;
    for (name, bytes) in RESOURCES {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_json_content() {
        let exe = "/opt/difflab/bin/difflab-kernel";
        let spec = kernel_json(Path::new(exe));
        assert_eq!(
            spec,
            json!({
                "argv": [exe, "--connection-file", "{connection_file}"],
                "display_name": "difflab",
                "language": "difflab",
                "interrupt_mode": "message",
                "kernel_protocol_version": "5.3",
                "metadata": {},
            })
        );
    }

    #[test]
    fn prefix_layout() {
        let dir = kernels_dir(&Target::Prefix("/tmp/env".into())).unwrap();
        assert_eq!(dir, Path::new("/tmp/env/share/jupyter/kernels"));
    }

    #[test]
    fn writes_the_spec_and_logos() {
        let dir = std::env::temp_dir().join(format!("difflab-kernelspec-{}", std::process::id()));
        write_spec(&dir, Path::new("/bin/difflab-kernel")).unwrap();
        let spec: Value =
            serde_json::from_slice(&std::fs::read(dir.join("kernel.json")).unwrap()).unwrap();
        assert_eq!(spec["argv"][0], "/bin/difflab-kernel");
        for size in ["32x32", "64x64"] {
            let png = std::fs::read(dir.join(format!("logo-{size}.png"))).unwrap();
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
            // The IHDR width and height.
            let side = size[..2].parse::<u32>().unwrap().to_be_bytes();
            assert_eq!((&png[16..20], &png[20..24]), (&side[..], &side[..]));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
