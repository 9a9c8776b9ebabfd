//! Files: `open` (with a `do` block), the `IOStream` it returns (`close`, `isopen`, `eof`,
//! `readline`, and printing to it), `read`, `readlines`, `eachline`, `readchomp`,
//! `countlines`, `write`, and the path functions `rm`, `mkdir`, `mkpath`, `readdir`,
//! `tempname`, `pwd`, `basename`, `dirname`, `splitext`, `abspath`.
//!
//! Every read of a whole file goes through [`read_text`], which reads in pieces under the
//! session's memory limit and interrupt, so an endless file (`/dev/zero`) or one larger than the
//! limit is an `OutOfMemoryError`, not a dead session. A stream opened for reading holds the
//! file's text (read that way); one opened for writing is a buffered file, flushed on `close`
//! and when the stream is dropped.

use super::Args;
use crate::display::print_string;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::types::{Prim, Type};
use crate::value::Value;
use std::any::Any;
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

/// How much of a file is read between looks at the memory limit and the interrupt flag.
const READ_PIECE: usize = 1 << 20;

fn system_error(action: &str, path: &str, e: &std::io::Error) -> Flow {
    fail(ErrorKind::SystemError, format!("{action} \"{path}\": {e}"))
}

/// The text of the file at `path` (bytes that are not UTF-8 become U+FFFD); a `SystemError`
/// naming it when it cannot be read, an `OutOfMemoryError` when it does not fit the memory
/// limit.
pub fn read_text(path: &str) -> Result<String, Flow> {
    let mut file = File::open(path).map_err(|e| system_error("opening file", path, &e))?;
    let what = format!("the text of file \"{path}\"");
    if let Ok(meta) = file.metadata() {
        if meta.is_dir() {
            return Err(fail(
                ErrorKind::SystemError,
                format!("reading file \"{path}\": it is a directory"),
            ));
        }
        difflab_ad::limits::reserve(meta.len(), &what)?;
    }
    let mut bytes = Vec::new();
    let mut piece = vec![0u8; READ_PIECE];
    loop {
        difflab_ad::limits::check()?;
        let n = file
            .read(&mut piece)
            .map_err(|e| system_error("reading file", path, &e))?;
        if n == 0 {
            break;
        }
        let needed = bytes.len() + n;
        if needed > bytes.capacity() {
            let grown = needed.max(bytes.capacity().saturating_mul(2));
            difflab_ad::limits::reserve(grown as u64, &what)?;
            bytes.reserve_exact(grown - bytes.len());
        }
        bytes.extend_from_slice(&piece[..n]);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// What an open file can do.
enum StreamState {
    /// Opened with `"r"`: the file's text and how far it has been read.
    Reading {
        text: String,
        position: usize,
    },
    /// Opened with `"w"` or `"a"`.
    Writing(BufWriter<File>),
    Closed,
}

/// An open file, as Julia's `IOStream`.
pub struct FileStream {
    path: String,
    state: RefCell<StreamState>,
}

impl Object for FileStream {
    fn type_name(&self) -> String {
        "IOStream".into()
    }

    fn show(&self) -> String {
        format!("IOStream(<file {}>)", self.path)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for FileStream {
    fn drop(&mut self) {
        if let StreamState::Writing(file) = self.state.get_mut() {
            // Nothing can report a failure here; `close` reports it.
            let _ = file.flush();
        }
    }
}

impl FileStream {
    fn open(path: &str, mode: &str) -> Result<FileStream, Flow> {
        let opened =
            |file: std::io::Result<File>| file.map_err(|e| system_error("opening file", path, &e));
        let state = match mode {
            "r" => StreamState::Reading {
                text: read_text(path)?,
                position: 0,
            },
            "w" => StreamState::Writing(BufWriter::new(opened(File::create(path))?)),
            "a" => StreamState::Writing(BufWriter::new(opened(
                File::options().append(true).create(true).open(path),
            )?)),
            other => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!("invalid open mode: {other} (the modes are \"r\", \"w\" and \"a\")"),
                ))
            }
        };
        Ok(FileStream {
            path: path.to_string(),
            state: RefCell::new(state),
        })
    }

    /// Appends `text` to a stream opened for writing.
    pub fn write_text(&self, text: &str) -> Result<(), Flow> {
        match &mut *self.state.borrow_mut() {
            StreamState::Writing(file) => file
                .write_all(text.as_bytes())
                .map_err(|e| system_error("writing to file", &self.path, &e)),
            StreamState::Reading { .. } => Err(fail(
                ErrorKind::ArgumentError,
                "write failed, IOStream is not writeable",
            )),
            StreamState::Closed => Err(closed()),
        }
    }

    /// Takes what is left of a stream opened for reading, or the next line of it (without
    /// its newline unless `keep`).
    fn read_rest(&self, line_only: bool, keep: bool) -> Result<String, Flow> {
        match &mut *self.state.borrow_mut() {
            StreamState::Reading { text, position } => {
                let rest = &text[*position..];
                if !line_only {
                    *position = text.len();
                    return Ok(rest.to_string());
                }
                let (line, consumed) = match rest.find('\n') {
                    Some(k) => (&rest[..k + usize::from(keep)], k + 1),
                    None => (rest, rest.len()),
                };
                let line = if keep {
                    line
                } else {
                    line.trim_end_matches('\r')
                };
                let line = line.to_string();
                *position += consumed;
                Ok(line)
            }
            StreamState::Writing(_) => Err(fail(
                ErrorKind::ArgumentError,
                "read failed, IOStream is not readable",
            )),
            StreamState::Closed => Err(closed()),
        }
    }

    fn close(&self) -> Result<(), Flow> {
        let state = std::mem::replace(&mut *self.state.borrow_mut(), StreamState::Closed);
        if let StreamState::Writing(mut file) = state {
            file.flush()
                .map_err(|e| system_error("closing file", &self.path, &e))?;
        }
        Ok(())
    }
}

fn closed() -> Flow {
    fail(ErrorKind::ArgumentError, "stream is closed or unusable")
}

/// The open file `v` is, if it is one.
pub fn as_stream(v: &Value) -> Option<&FileStream> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<FileStream>(),
        _ => None,
    }
}

/// The path argument `i` of `name`: a string.
fn path_arg(args: &Args, i: usize, name: &str) -> Result<String, Flow> {
    match &args.pos[i] {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
    }
}

/// `open(path[, mode])`, and `open(f, path[, mode])` (the `do` form): calls `f` with the
/// stream and closes it however `f` ends.
fn open_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("open", 1, 3)?;
    let callback = match &args.pos[0] {
        Value::Str(_) => None,
        f => Some(f.clone()),
    };
    let first_path = usize::from(callback.is_some());
    if args.pos.len() <= first_path {
        return Err(fail(
            ErrorKind::MethodError,
            "no method matching open(::Function): give the file's path",
        ));
    }
    let path = path_arg(&args, first_path, "open")?;
    let mode = match args.pos.get(first_path + 1) {
        Some(Value::Str(m)) => m.to_string(),
        Some(other) => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching open(::String, ::{})", other.type_name()),
            ))
        }
        None => "r".to_string(),
    };
    let stream = Value::object(FileStream::open(&path, &mode)?);
    let Some(f) = callback else {
        return Ok(stream);
    };
    let result = interp.call(&f, vec![stream.clone()]);
    let closing = as_stream(&stream).map_or(Ok(()), FileStream::close);
    let value = result?;
    closing?;
    Ok(value)
}

fn stream_arg<'a>(args: &'a Args, name: &str) -> Result<&'a FileStream, Flow> {
    as_stream(&args.pos[0]).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        )
    })
}

fn close_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("close", 1, 1)?;
    stream_arg(&args, "close")?.close()?;
    Ok(Value::Nothing)
}

fn isopen_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isopen", 1, 1)?;
    let stream = stream_arg(&args, "isopen")?;
    let open = !matches!(*stream.state.borrow(), StreamState::Closed);
    Ok(Value::Bool(open))
}

fn eof_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("eof", 1, 1)?;
    let stream = stream_arg(&args, "eof")?;
    let at_end = match &*stream.state.borrow() {
        StreamState::Reading { text, position } => *position >= text.len(),
        StreamState::Writing(_) => true,
        StreamState::Closed => return Err(closed()),
    };
    Ok(Value::Bool(at_end))
}

/// `readline(io; keep=false)`: the next line of an open file.
pub fn read_line(args: &Args) -> EvalResult {
    args.keywords("readline", &["keep"])?;
    let keep = args.flag("keep", false)?;
    let stream = stream_arg(args, "readline")?;
    Ok(Value::str(stream.read_rest(true, keep)?))
}

/// The text of the file or the rest of the stream that argument 0 names.
fn text_of(args: &Args, name: &str) -> Result<String, Flow> {
    match as_stream(&args.pos[0]) {
        Some(stream) => stream.read_rest(false, false),
        None => read_text(&path_arg(args, 0, name)?),
    }
}

fn read_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("read", 2, 2)?;
    if !matches!(&args.pos[1], Value::Builtin(b) if b.name == "String") {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching read(::{}, {}): difflab reads files as text, with read(path, String)",
                args.pos[0].type_name(),
                crate::display::repr(&args.pos[1])
            ),
        ));
    }
    Ok(Value::str(text_of(&args, "read")?))
}

fn readchomp_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("readchomp", 1, 1)?;
    let text = text_of(&args, "readchomp")?;
    let chomped = text
        .strip_suffix('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t))
        .unwrap_or(&text);
    Ok(Value::str(chomped))
}

/// The lines of a text, without their newlines unless `keep`; a last empty line is not one.
fn lines_of(text: &str, keep: bool) -> Vec<Value> {
    text.split_inclusive('\n')
        .map(|line| {
            if keep {
                Value::str(line)
            } else {
                Value::str(line.trim_end_matches('\n').trim_end_matches('\r'))
            }
        })
        .collect()
}

/// `readlines` and `eachline` (which gives the same lines, read at once).
fn lines(args: &Args, name: &str) -> EvalResult {
    args.arity(name, 1, 1)?;
    args.keywords(name, &["keep"])?;
    let keep = args.flag("keep", false)?;
    let text = text_of(args, name)?;
    Ok(Value::declared_list(
        Type::Prim(Prim::String),
        lines_of(&text, keep),
    ))
}

fn readlines_(_: &mut Interp, args: Args) -> EvalResult {
    lines(&args, "readlines")
}

fn eachline_(_: &mut Interp, args: Args) -> EvalResult {
    lines(&args, "eachline")
}

fn countlines_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("countlines", 1, 1)?;
    let text = text_of(&args, "countlines")?;
    Ok(Value::Int(text.split_inclusive('\n').count() as i64))
}

/// The text `write` writes for a value: strings and characters as they are; numbers would be
/// their bytes in Julia, which difflab has no type for.
fn written_text(v: &Value) -> Result<String, Flow> {
    match v {
        Value::Str(_) | Value::Char(_) => Ok(print_string(v)),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching write(::IO, ::{}): write takes strings and characters here (Julia writes a number's bytes); use print(io, x) for its text",
                other.type_name()
            ),
        )),
    }
}

/// `write(io, xs...)` to a stream, an `IOBuffer` or `stdout`, and `write(path, text)`: the
/// number of bytes written.
fn write_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("write", 2, usize::MAX)?;
    let text = args.pos[1..]
        .iter()
        .map(written_text)
        .collect::<Result<String, Flow>>()?;
    let written = Value::Int(text.len() as i64);
    if let Value::Str(path) = &args.pos[0] {
        std::fs::write(path.as_str(), &text).map_err(|e| system_error("writing file", path, &e))?;
        return Ok(written);
    }
    if !super::io::is_output(&args.pos[0]) {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching write(::{}, …)", args.pos[0].type_name()),
        ));
    }
    super::io::print_to(interp, &args.pos[0], &text)?;
    Ok(written)
}

fn rm_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("rm", 1, 1)?;
    args.keywords("rm", &["force", "recursive"])?;
    let path = path_arg(&args, 0, "rm")?;
    let force = args.flag("force", false)?;
    let recursive = args.flag("recursive", false)?;
    let target = Path::new(&path);
    let removed = if target.is_dir() && !target.is_symlink() {
        if recursive {
            std::fs::remove_dir_all(target)
        } else {
            std::fs::remove_dir(target)
        }
    } else {
        std::fs::remove_file(target)
    };
    match removed {
        Err(e) if !(force && e.kind() == std::io::ErrorKind::NotFound) => {
            Err(system_error("unlink", &path, &e))
        }
        _ => Ok(Value::Nothing),
    }
}

fn mkdir_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("mkdir", 1, 1)?;
    let path = path_arg(&args, 0, "mkdir")?;
    std::fs::create_dir(&path).map_err(|e| system_error("mkdir", &path, &e))?;
    Ok(Value::str(path))
}

fn mkpath_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("mkpath", 1, 1)?;
    let path = path_arg(&args, 0, "mkpath")?;
    std::fs::create_dir_all(&path).map_err(|e| system_error("mkpath", &path, &e))?;
    Ok(Value::str(path))
}

/// `readdir(dir = pwd(); join = false)`: the names in `dir`, sorted.
fn readdir_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("readdir", 0, 1)?;
    args.keywords("readdir", &["join"])?;
    let join = args.flag("join", false)?;
    let dir = match args.pos.first() {
        Some(_) => path_arg(&args, 0, "readdir")?,
        None => ".".to_string(),
    };
    let entries = std::fs::read_dir(&dir).map_err(|e| system_error("readdir", &dir, &e))?;
    let mut names = Vec::new();
    for entry in entries {
        difflab_ad::limits::check()?;
        let entry = entry.map_err(|e| system_error("readdir", &dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        names.push(if join {
            Path::new(&dir).join(&name).to_string_lossy().into_owned()
        } else {
            name
        });
    }
    names.sort();
    Ok(Value::declared_list(
        Type::Prim(Prim::String),
        names.into_iter().map(Value::str).collect(),
    ))
}

/// `tempname()`: a path in the temporary directory that names no file yet (nothing is
/// created).
fn tempname_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("tempname", 0, 0)?;
    let dir = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .subsec_nanos();
    let mut k = 0u32;
    loop {
        let candidate = dir.join(format!("jl_{:x}_{nanos:08x}_{k}", std::process::id()));
        if !candidate.exists() {
            return Ok(Value::str(candidate.to_string_lossy()));
        }
        k += 1;
    }
}

fn pwd_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("pwd", 0, 0)?;
    let dir = std::env::current_dir().map_err(|e| system_error("pwd", ".", &e))?;
    Ok(Value::str(dir.to_string_lossy()))
}

/// `basename` and `dirname` split at the last `/` as Julia does: `"a/b/"` has basename `""`.
fn split_last_slash(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(k) => (&path[..k], &path[k + 1..]),
        None => ("", path),
    }
}

fn basename_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("basename", 1, 1)?;
    let path = path_arg(&args, 0, "basename")?;
    Ok(Value::str(split_last_slash(&path).1))
}

fn dirname_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dirname", 1, 1)?;
    let path = path_arg(&args, 0, "dirname")?;
    Ok(Value::str(split_last_slash(&path).0))
}

/// `splitext(path)`: the path without its extension, and the extension with its dot.
fn splitext_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("splitext", 1, 1)?;
    let path = path_arg(&args, 0, "splitext")?;
    let name_start = path.rfind('/').map_or(0, |k| k + 1);
    let split = match path[name_start..].rfind('.') {
        Some(k) if k > 0 => name_start + k,
        _ => path.len(),
    };
    Ok(Value::tuple(vec![
        Value::str(&path[..split]),
        Value::str(&path[split..]),
    ]))
}

fn abspath_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("abspath", 1, 1)?;
    let path = path_arg(&args, 0, "abspath")?;
    let absolute = std::path::absolute(&path).map_err(|e| system_error("abspath", &path, &e))?;
    Ok(Value::str(absolute.to_string_lossy()))
}

crate::builtins! {
    "open" => open_, false, "    open(path, mode = \"r\")\n    open(f, path, mode = \"r\")\n\nOpens the file `path` for reading (`\"r\"`), writing (`\"w\"`, replacing it) or appending (`\"a\"`) and returns its `IOStream`; `print`, `println`, `write`, `show` and `@printf` write to it, `readline`, `readlines`, `read(io, String)` and `eof` read it, `close` ends it. With a function (a `do` block) the stream is passed to it and closed however it ends, and its result is returned.\n\n```\njulia> path = joinpath(tempdir(), \"difflab-open.txt\");\n\njulia> open(path, \"w\") do io\n           println(io, \"x = \", 1.5)\n           write(io, \"done\\n\")\n       end\n5\n\njulia> readlines(path)\n2-element Vector{String}:\n \"x = 1.5\"\n \"done\"\n\njulia> io = open(path); readline(io), readline(io), eof(io)\n(\"x = 1.5\", \"done\", true)\n\njulia> close(io); isopen(io)\nfalse\n```";
    "close" => close_, false, "    close(io)\n\nCloses a file opened with `open`, writing out what was printed to it.\n\n```\njulia> io = open(joinpath(tempdir(), \"difflab-close.txt\"), \"w\"); print(io, 1); close(io)\n\njulia> isopen(io)\nfalse\n```";
    "isopen" => isopen_, false, "    isopen(io)\n\nWhether the stream `io` is still open.\n\n```\njulia> io = open(joinpath(tempdir(), \"difflab-isopen.txt\"), \"w\"); isopen(io)\ntrue\n```";
    "eof" => eof_, false, "    eof(io)\n\nWhether a stream opened for reading has nothing left to read.\n\n```\njulia> path = joinpath(tempdir(), \"difflab-eof.txt\"); write(path, \"one line\\n\");\n\njulia> io = open(path); readline(io); eof(io)\ntrue\n```";
    "read" => read_, false, "    read(path, String)\n    read(io, String)\n\nThe whole text of a file, or the rest of a stream. (Julia's `read(path)` gives bytes, which difflab has no type for.)\n\n```\njulia> path = joinpath(tempdir(), \"difflab-read.txt\"); write(path, \"a\\nb\\n\");\n\njulia> read(path, String)\n\"a\\nb\\n\"\n```";
    "readchomp" => readchomp_, false, "    readchomp(path)\n\nThe text of a file without its last newline.\n\n```\njulia> path = joinpath(tempdir(), \"difflab-readchomp.txt\"); write(path, \"42\\n\");\n\njulia> parse(Int, readchomp(path))\n42\n```";
    "readlines" => readlines_, false, "    readlines(path; keep = false)\n    readlines(io; keep = false)\n\nThe lines of a file (or of the rest of a stream), without their newlines unless `keep = true`.\n\n```\njulia> path = joinpath(tempdir(), \"difflab-readlines.txt\"); write(path, \"1,2\\n3,4\\n\");\n\njulia> [parse.(Int, split(line, \",\")) for line in readlines(path)]\n2-element Vector{Vector{Int64}}:\n [1, 2]\n [3, 4]\n```";
    "eachline" => eachline_, false, "    eachline(path; keep = false)\n    eachline(io; keep = false)\n\nThe lines of a file or stream to iterate over, without their newlines unless `keep = true` (read at once; the file's size is bounded by the memory limit).\n\n```\njulia> path = joinpath(tempdir(), \"difflab-eachline.txt\"); write(path, \"a\\nbb\\n\");\n\njulia> for line in eachline(path)\n           println(length(line))\n       end\n1\n2\n```";
    "countlines" => countlines_, false, "    countlines(path)\n    countlines(io)\n\nThe number of lines of a file (a last line without a newline counts).\n\n```\njulia> path = joinpath(tempdir(), \"difflab-countlines.txt\"); write(path, \"a\\nb\\nc\");\n\njulia> countlines(path)\n3\n```";
    "write" => write_, false, "    write(io, xs...)\n    write(path, text)\n\nWrites strings and characters to a stream (`stdout`, an `IOBuffer`, an open file) or replaces the file `path` with `text`; returns the number of bytes written. Numbers are written with `print` (Julia's `write` gives their bytes).\n\n```\njulia> io = IOBuffer(); write(io, \"ab\", 'c')\n3\n\njulia> String(take!(io))\n\"abc\"\n```";
    "rm" => rm_, false, "    rm(path; force = false, recursive = false)\n\nDeletes a file, or a directory (with its contents when `recursive`); a missing path is an error unless `force`.\n\n```\njulia> path = joinpath(tempdir(), \"difflab-rm.txt\"); write(path, \"x\"); rm(path); isfile(path)\nfalse\n```";
    "mkdir" => mkdir_, false, "    mkdir(path)\n\nCreates the directory `path` (its parent must exist) and returns the path.\n\n```\njulia> dir = tempname(); mkdir(dir) == dir, isdir(dir)\n(true, true)\n```";
    "mkpath" => mkpath_, false, "    mkpath(path)\n\nCreates the directory `path` and any missing parents; returns the path.\n\n```\njulia> dir = joinpath(tempname(), \"a\", \"b\"); mkpath(dir); isdir(dir)\ntrue\n```";
    "readdir" => readdir_, false, "    readdir(dir = pwd(); join = false)\n\nThe names in directory `dir`, sorted; with `join = true`, each joined to `dir`.\n\n```\njulia> dir = mkpath(tempname()); write(joinpath(dir, \"b.txt\"), \"\"); write(joinpath(dir, \"a.txt\"), \"\");\n\njulia> readdir(dir)\n2-element Vector{String}:\n \"a.txt\"\n \"b.txt\"\n```";
    "tempname" => tempname_, false, "    tempname()\n\nA path in the temporary directory that names no file yet (nothing is created).\n\n```\njulia> isfile(tempname())\nfalse\n```";
    "pwd" => pwd_, false, "    pwd()\n\nThe working directory.\n\n```\njulia> isdir(pwd())\ntrue\n```";
    "basename" => basename_, false, "    basename(path)\n\nThe last part of `path` (`\"\"` when it ends with `/`).\n\n```\njulia> basename(\"data/case3.m\")\n\"case3.m\"\n```";
    "dirname" => dirname_, false, "    dirname(path)\n\n`path` without its last part.\n\n```\njulia> dirname(\"data/pglib/case3.m\")\n\"data/pglib\"\n```";
    "splitext" => splitext_, false, "    splitext(path)\n\nThe path without its extension, and the extension with its dot.\n\n```\njulia> splitext(\"results/run.csv\")\n(\"results/run\", \".csv\")\n```";
    "abspath" => abspath_, false, "    abspath(path)\n\nThe absolute form of `path`, from the working directory.\n\n```\njulia> abspath(\"/tmp/x\")\n\"/tmp/x\"\n```";
}
