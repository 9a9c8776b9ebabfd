//! LaTeX-style Unicode input: `\alpha<TAB>` becomes `α`, as in Julia's REPL and IJulia.

use crate::complete::Completions;

/// The names Julia users type most, with their symbols.
pub const SYMBOLS: &[(&str, &str)] = &[
    ("\\alpha", "α"),
    ("\\beta", "β"),
    ("\\gamma", "γ"),
    ("\\delta", "δ"),
    ("\\epsilon", "ϵ"),
    ("\\varepsilon", "ε"),
    ("\\zeta", "ζ"),
    ("\\eta", "η"),
    ("\\theta", "θ"),
    ("\\iota", "ι"),
    ("\\kappa", "κ"),
    ("\\lambda", "λ"),
    ("\\mu", "μ"),
    ("\\nu", "ν"),
    ("\\xi", "ξ"),
    ("\\pi", "π"),
    ("\\rho", "ρ"),
    ("\\sigma", "σ"),
    ("\\tau", "τ"),
    ("\\upsilon", "υ"),
    ("\\phi", "ϕ"),
    ("\\varphi", "φ"),
    ("\\chi", "χ"),
    ("\\psi", "ψ"),
    ("\\omega", "ω"),
    ("\\Gamma", "Γ"),
    ("\\Delta", "Δ"),
    ("\\Theta", "Θ"),
    ("\\Lambda", "Λ"),
    ("\\Xi", "Ξ"),
    ("\\Pi", "Π"),
    ("\\Sigma", "Σ"),
    ("\\Phi", "Φ"),
    ("\\Psi", "Ψ"),
    ("\\Omega", "Ω"),
    ("\\partial", "∂"),
    ("\\nabla", "∇"),
    ("\\approx", "≈"),
    ("\\le", "≤"),
    ("\\ge", "≥"),
    ("\\ne", "≠"),
    ("\\in", "∈"),
    ("\\notin", "∉"),
    ("\\cdot", "⋅"),
    ("\\times", "×"),
    ("\\div", "÷"),
    ("\\circ", "∘"),
    ("\\sqrt", "√"),
    ("\\infty", "∞"),
    ("\\euler", "ℯ"),
    ("\\equiv", "≡"),
    ("\\sum", "∑"),
    ("\\prod", "∏"),
    ("\\int", "∫"),
    ("\\hat", "\u{302}"),
    ("\\bar", "\u{304}"),
    ("\\dot", "\u{307}"),
    ("\\prime", "′"),
    ("\\ell", "ℓ"),
    ("\\_0", "₀"),
    ("\\_1", "₁"),
    ("\\_2", "₂"),
    ("\\_3", "₃"),
    ("\\_4", "₄"),
    ("\\_5", "₅"),
    ("\\_6", "₆"),
    ("\\_7", "₇"),
    ("\\_8", "₈"),
    ("\\_9", "₉"),
    ("\\_i", "ᵢ"),
    ("\\_j", "ⱼ"),
    ("\\^0", "⁰"),
    ("\\^1", "¹"),
    ("\\^2", "²"),
    ("\\^3", "³"),
    ("\\^4", "⁴"),
    ("\\^5", "⁵"),
    ("\\^6", "⁶"),
    ("\\^7", "⁷"),
    ("\\^8", "⁸"),
    ("\\^9", "⁹"),
    ("\\^T", "ᵀ"),
];

/// Completes a `\name` ending at `cursor`: the exact symbol, or the names starting with it.
pub fn complete(code: &str, cursor: usize) -> Option<Completions> {
    let before = &code[..cursor];
    let start = before.rfind('\\')?;
    let word = &before[start..];
    if word[1..]
        .chars()
        .any(|c| !(c.is_alphanumeric() || c == '_' || c == '^'))
    {
        return None;
    }
    if let Some((_, symbol)) = SYMBOLS.iter().find(|(name, _)| *name == word) {
        return Some(Completions {
            matches: vec![symbol.to_string()],
            start,
            end: cursor,
        });
    }
    let mut matches: Vec<String> = SYMBOLS
        .iter()
        .filter(|(name, _)| name.starts_with(word))
        .map(|(name, _)| name.to_string())
        .collect();
    matches.sort();
    Some(Completions {
        matches,
        start,
        end: cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn alpha_becomes_the_greek_letter() {
        let c = complete("x = \\alpha", 10).unwrap();
        assert_eq!(c.matches, vec!["α"]);
        assert_eq!((c.start, c.end), (4, 10));
    }
}
