//! `deepcopy(x)`: a copy of `x` and of everything it holds, as Julia's.
//!
//! A container met twice (shared, or holding itself) is copied once, so the copy has the
//! original's shape of references, cycles included.

use super::Args;
use crate::error::{EvalResult, Flow};
use crate::eval::Interp;
use crate::types::StructValue;
use crate::value::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The copies made so far, by the address of the original.
type Copies = HashMap<usize, Value>;

fn copy_of(interp: &Interp, v: &Value, copies: &mut Copies) -> Result<Value, Flow> {
    interp.check_stack()?;
    let address = match v {
        Value::List(l) => Rc::as_ptr(l) as usize,
        Value::Array(a) => Rc::as_ptr(a) as usize,
        Value::Sparse(s) => Rc::as_ptr(s) as usize,
        Value::Struct(s) => Rc::as_ptr(s) as usize,
        Value::Tuple(items) => {
            let items = items
                .iter()
                .map(|x| copy_of(interp, x, copies))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Value::tuple(items));
        }
        Value::NamedTuple(fields) => {
            let fields = fields
                .iter()
                .map(|(name, x)| Ok((*name, copy_of(interp, x, copies)?)))
                .collect::<Result<Vec<_>, Flow>>()?;
            return Ok(Value::named_tuple(fields));
        }
        other => return Ok(other.clone()),
    };
    if let Some(done) = copies.get(&address) {
        return Ok(done.clone());
    }
    match v {
        Value::List(items) => {
            // Registered before its elements are copied, so an element that is the list
            // itself becomes the copy.
            let copy = match &items.declared {
                Some(eltype) => Value::declared_list(eltype.clone(), Vec::new()),
                None => Value::list(Vec::new()),
            };
            copies.insert(address, copy.clone());
            let Value::List(copied) = &copy else {
                unreachable!("a list was just made")
            };
            let originals = items.borrow().clone();
            for item in &originals {
                let item = copy_of(interp, item, copies)?;
                copied.borrow_mut().push(item);
            }
            Ok(copy)
        }
        Value::Struct(s) => {
            let copy = Rc::new(StructValue {
                def: s.def.clone(),
                params: s.params.clone(),
                fields: RefCell::new(Vec::new()),
                shown: RefCell::new(None),
                displayed: RefCell::new(None),
            });
            copies.insert(address, Value::Struct(copy.clone()));
            let originals = s.fields.borrow().clone();
            for field in &originals {
                let field = copy_of(interp, field, copies)?;
                copy.fields.borrow_mut().push(field);
            }
            Ok(Value::Struct(copy))
        }
        // Arrays and sparse matrices hold numbers only.
        numbers => {
            let copy = super::arrays::deep_copy(numbers);
            copies.insert(address, copy.clone());
            Ok(copy)
        }
    }
}

fn deepcopy_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("deepcopy", 1, 1)?;
    copy_of(interp, &args.pos[0], &mut Copies::new())
}

crate::builtins! {
    "deepcopy" => deepcopy_, false, "    deepcopy(x)\n\nA copy of `x` and, recursively, of everything it holds (`copy` copies one level). A container met twice is copied once, so shared parts and cycles are kept.\n\n```\njulia> a = [[1, 2], [3]]; b = deepcopy(a); b[1][1] = 0; a[1]\n2-element Vector{Int64}:\n 1\n 2\n```";
}
