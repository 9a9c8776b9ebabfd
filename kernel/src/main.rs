//! `difflab-kernel`: the Jupyter kernel for difflab, a thin frontend over
//! `difflab_session::Session` speaking the Jupyter messaging protocol 5.3 over ZeroMQ.
//!
//! `difflab-kernel --connection-file FILE` runs the kernel ([`kernel::run`]);
//! `difflab-kernel install` writes the kernelspec ([`install`]). Start with [`kernel`] (threads
//! and sockets), then [`shell`] and [`execute`] (requests), [`wire`] (framing and signing) and
//! [`iopub`] (ordered output). Only this crate knows the wire protocol.

mod connection;
mod control;
mod cursor;
mod execute;
mod handlers;
mod history;
mod install;
mod iopub;
mod kernel;
mod progress;
mod shell;
mod wire;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: difflab-kernel --connection-file FILE
       difflab-kernel install [--user | --sys-prefix | --prefix DIR]

  --connection-file FILE  run the kernel with the connection file a Jupyter client wrote
  install                 write the kernelspec `difflab` so Jupyter can start this kernel:
    --user                  in your Jupyter data directory (the default)
    --sys-prefix            in the active Python environment ($VIRTUAL_ENV or sys.prefix)
    --prefix DIR            in DIR/share/jupyter/kernels
  --help                  show this help
  --version               show the version";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        ["--version" | "-V"] => {
            println!("difflab-kernel {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        ["install", rest @ ..] => match install_target(rest) {
            Some(target) => run_install(&target),
            None => usage_error(),
        },
        ["--connection-file" | "-f", file] => run_kernel(PathBuf::from(file)),
        [arg] if arg.starts_with("--connection-file=") => {
            run_kernel(PathBuf::from(&arg["--connection-file=".len()..]))
        }
        _ => usage_error(),
    }
}

fn install_target(args: &[&str]) -> Option<install::Target> {
    match args {
        [] | ["--user"] => Some(install::Target::User),
        ["--sys-prefix"] => Some(install::Target::SysPrefix),
        ["--prefix", dir] => Some(install::Target::Prefix(PathBuf::from(dir))),
        _ => None,
    }
}

fn run_install(target: &install::Target) -> ExitCode {
    match install::install(target) {
        Ok(dir) => {
            println!("Installed the difflab kernelspec in {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("difflab-kernel: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_kernel(file: PathBuf) -> ExitCode {
    let result = connection::ConnectionInfo::load(&file).and_then(|info| kernel::run(&info));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("difflab-kernel: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}
