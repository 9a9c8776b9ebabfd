//! Values nested far deeper than the stack could recurse are dropped without overflowing it.
//!
//! Each container hands its items to a worklist when freed (`value::release`), so the program
//! below, run on a thread with a stack of a few MiB, survives dropping every shape of nesting a
//! user can build in a loop. Dropping them recursively needs tens of MiB of stack.

mod support;

const DEPTH: usize = 200_000;

fn nested_program() -> String {
    format!(
        "
mutable struct Node; next; end
a = Any[]; t = (); nt = (a = 1,); n = nothing; d = Dict{{Any, Any}}(); r = Ref(0)
f = identity; c = sin; p = ==(0); l = 1:2
for i in 1:{DEPTH}
    global a = Any[a]
    global t = (t,)
    global nt = (a = nt,)
    global n = Node(n)
    global d = Dict{{Any, Any}}(1 => d)
    global r = Ref(r)
    global f = let g = f
        x -> g(x)
    end
    global c = c ∘ sin
    global p = ==(p)
    global l = Iterators.take(l, 1)
end
a = t = nt = n = d = r = f = c = p = l = nothing
"
    )
}

#[test]
fn values_nested_deeper_than_the_stack_are_dropped() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            let interp = support::interp_running(&nested_program());
            drop(interp);
        })
        .expect("the thread starts")
        .join()
        .expect("dropping deep values does not overflow the stack");
}
