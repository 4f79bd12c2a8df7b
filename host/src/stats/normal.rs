//! The standard normal distribution: its distribution function Φ and the 97.5 % quantile that
//! every 95 % interval of this module uses.

/// Φ⁻¹(0.975): the standard normal quantile of a two-sided 95 % interval (to the last digit of
/// `scipy.stats.norm.ppf(0.975)`, which fishtest's `stat_util.Phi_inv` calls). cutechess-cli gets
/// its quantile from Winitzki's approximation of erf⁻¹ (`Elo::erfInv` in `elo.cpp`), which gives
/// 1.95716; its printed margins are therefore 0.14 % narrower than the ones computed here.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Φ(x) = ½·erfc(−x/√2), the probability that a standard normal variable is below `x`. erfc is
/// musl's (through the `libm` crate), accurate to an ulp, so Φ keeps its precision in the tails.
pub fn phi(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// erf(x), for cutechess's likelihood of superiority.
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of Φ from scipy.stats.norm.cdf (scipy 1.17).
    #[test]
    fn phi_matches_published_values() {
        for (x, expected) in [
            (0.0, 0.5),
            (1.0, 0.841_344_746_068_542_9),
            (-1.959_963_984_540_054, 0.025),
            (Z_95, 0.975),
            (-5.0, 2.866_515_718_791_933e-7),
            (3.0, 0.998_650_101_968_369_9),
        ] {
            let got = phi(x);
            assert!(
                (got - expected).abs() <= 1e-15 + 1e-12 * expected,
                "Φ({x}) = {got}"
            );
        }
    }
}
