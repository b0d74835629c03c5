//! The estimate of a run's cycles from its measured units: per stratum, the ratio
//! estimator of a finite population with warp instructions as the auxiliary variable
//! (Cochran, "Sampling Techniques", 3rd ed., sections 6.2-6.4): a stratum's cycles are its
//! instructions times the measured units' cycles per instruction, with the variance of that
//! ratio. Strata whose every unit was measured add their cycles exactly. The units of a
//! launch the cores' progress model times (`progress.rs`) are its share of the model's
//! time instead, turned into cycles by the ratio of its kernel's measured full units'
//! cycles to their weights (`calibration`). Strata measured once of several, and
//! calibrations from one full unit of several, are collapsed (`collapse`).

use wsim_sim::stats::Stratum;

/// One unit of the run: its warp instructions (known for every unit from the functional
/// pass), when it was simulated in detail its cycles (corrected by a warm-up check), and
/// whether the cores' progress model times it (`progress.rs`): such a unit is counted in
/// its stratum and left out of its ratio estimate.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    pub instructions: u64,
    pub cycles: Option<f64>,
    pub timed: bool,
}

/// A stratum's estimate: its record, its variance and its degrees of freedom (the measured
/// units less one, or zero when every unit was measured or only one was), and when one
/// unit of several was measured, what `collapse` needs of it.
pub struct Estimated {
    pub stratum: Stratum,
    pub variance: f64,
    pub degrees_of_freedom: u32,
    pub once: Option<Once>,
}

/// A stratum measured once of several: its ratio (cycles a warp instruction, or a unit
/// where its units have none) and its finite-population correction, 1 - 1/N.
#[derive(Clone, Copy, Debug)]
pub struct Once {
    pub ratio: f64,
    pub fpc: f64,
}

/// The estimate of one stratum's cycles from `units` (every unit of it).
pub fn stratum(name: &str, units: &[Unit]) -> Estimated {
    let record = |cycles: f64, half_width: f64| Stratum {
        name: name.to_string(),
        units: units.len() as u32,
        sampled_units: units.iter().filter(|u| u.cycles.is_some()).count() as u32,
        instructions: units.iter().map(|u| u.instructions).sum(),
        cycles,
        half_width,
        ..Stratum::default()
    };
    let estimated: Vec<&Unit> = units.iter().filter(|u| !u.timed).collect();
    let population = estimated.len() as f64;
    let weight: f64 = estimated.iter().map(|u| u.instructions as f64).sum();
    let measured: Vec<(f64, f64)> = (estimated.iter())
        .filter_map(|u| u.cycles.map(|c| (u.instructions as f64, c)))
        .collect();
    let n = measured.len();
    if n == estimated.len() {
        let cycles = measured.iter().map(|(_, y)| y).sum();
        return Estimated {
            stratum: record(cycles, 0.0),
            variance: 0.0,
            degrees_of_freedom: 0,
            once: None,
        };
    }
    let (sx, sy) = (measured.iter()).fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    // Units without instructions (a launch of nothing) still take cycles: then the mean
    // cycles per unit estimates them.
    let (ratio, total) = if sx > 0.0 {
        (sy / sx, weight)
    } else {
        (sy / n as f64, population)
    };
    let by = |x: f64| if sx > 0.0 { x } else { 1.0 };
    let cycles = ratio * total;
    let (variance, df) = if n >= 2 {
        let about: Vec<(f64, f64)> = measured.iter().map(|&(x, y)| (by(x), y)).collect();
        let fpc = 1.0 - n as f64 / population;
        (
            population * population * fpc * residuals(&about, ratio) / n as f64,
            n as u32 - 1,
        )
    } else {
        (f64::NAN, 0)
    };
    let half_width = if variance.is_nan() {
        f64::INFINITY
    } else {
        t975(df) * variance.sqrt()
    };
    Estimated {
        stratum: record(cycles, half_width),
        variance,
        degrees_of_freedom: df,
        once: (n == 1).then(|| Once {
            ratio,
            fpc: 1.0 - 1.0 / population,
        }),
    }
}

/// Ratios measured once each, collapsed (Cochran, "Sampling Techniques", 5A.12): a
/// stratum measured once of several (or a calibration from one full unit of several) has
/// no spread of its own, so each takes the spread of the group's ratios (`Once::ratio`,
/// `Calibration::ratio`) about their mean, relative to the mean's square, with one degree
/// of freedom fewer than they are. That spread includes the strata's differences, so it
/// overstates each one's own (Cochran: the collapsed estimate is biased upwards), the side
/// an interval may err on; relative, since one run's strata differ many times over in
/// size and in cycles a warp instruction (a launch's head at 0.6, a drain at 13).
/// Collapsing a kernel's strata apart from the others' was measured the same on Table
/// 4.5's medium runs and Figure 4.10's RN and UK runs at units of 20k within a budget of a
/// tenth: none had two kernels with two each. None for fewer than two.
pub fn collapse(ratios: &[f64]) -> Option<Spread> {
    if ratios.len() < 2 {
        return None;
    }
    let l = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / l;
    let variance = if mean > 0.0 {
        ratios.iter().map(|r| (r / mean - 1.0).powi(2)).sum::<f64>() / (l - 1.0)
    } else {
        0.0
    };
    Some(Spread {
        variance,
        df: ratios.len() as u32 - 1,
    })
}

/// The ratio that turns the cores' progress model's weights into cycles (`progress.rs`),
/// with its variance relative to its square and its degrees of freedom.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    pub ratio: f64,
    pub relative_variance: f64,
    pub df: u32,
    /// Where one full unit of several was measured: how many ratios were collapsed into
    /// the spread that stands for its own (`collapse`).
    pub collapsed: Option<u32>,
}

/// A kernel's calibration from its measured full units' (weight, cycles) of `population`
/// such units whose weights average `mean_weight`: the ratio estimator (Cochran 6.2, the
/// population's mean of the auxiliary variable known) and its variance, none when every
/// full unit was measured, NaN with one of several.
pub fn calibration(pairs: &[(f64, f64)], population: usize, mean_weight: f64) -> Calibration {
    let n = pairs.len() as f64;
    let (sx, sy) = (pairs.iter()).fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let ratio = sy / sx;
    let (relative_variance, df) = match pairs.len() {
        k if k >= population => (0.0, 0),
        0 | 1 => (f64::NAN, 0),
        k => {
            let fpc = 1.0 - n / population as f64;
            let variance = fpc * residuals(pairs, ratio) / (n * mean_weight * mean_weight);
            (variance / (ratio * ratio), k as u32 - 1)
        }
    };
    Calibration {
        ratio,
        relative_variance,
        df,
        collapsed: None,
    }
}

/// A variance and its degrees of freedom (none: 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    pub variance: f64,
    pub df: u32,
}

impl Spread {
    /// The sum of two independent estimates' spreads, at the fewer degrees of freedom.
    pub fn and(self, other: Spread) -> Spread {
        Spread {
            variance: self.variance + other.variance,
            df: crate::fewest(self.df, other.df),
        }
    }

    /// Its 95% interval's half width (0 for no variance).
    pub fn half_width(&self) -> f64 {
        if self.variance == 0.0 {
            0.0
        } else {
            t975(self.df) * self.variance.sqrt()
        }
    }
}

/// The lone warps' variance of a part the cores' progress model times, from that part
/// with each probed lone warp's rates in turn (`parts`): a prediction's, s^2 (1 + 1/n),
/// since a launch's drain is timed by the warps it leaves alone, each a draw from the
/// warps the probes sampled, not their mean. None (0, 0 degrees of freedom) with fewer
/// than two.
pub fn lone_warps(parts: &[f64]) -> Spread {
    let n = parts.len();
    if n < 2 {
        return Spread::default();
    }
    let mean = parts.iter().sum::<f64>() / n as f64;
    let s2 = parts.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Spread {
        variance: s2 * (1.0 + 1.0 / n as f64),
        df: n as u32 - 1,
    }
}

/// A warm-up check's ratio (`Plan::check_warmup`): from units measured after the run's
/// warm-up (`short`) and after the check's (`long`), the ratio estimator of the long
/// cycles to the short ones (Cochran 6.2) and its variance, or NaN with one unit.
pub fn check_ratio(pairs: &[(f64, f64)]) -> (f64, f64) {
    let n = pairs.len() as f64;
    let (short, long) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    if short == 0.0 {
        return (1.0, 0.0);
    }
    let ratio = long / short;
    if pairs.len() < 2 {
        return (ratio, f64::NAN);
    }
    let mean = short / n;
    (ratio, residuals(pairs, ratio) / (n * mean * mean))
}

/// The variance of (x, y) pairs about the line y = `ratio` x (Cochran's S^2 of a ratio
/// estimator's residuals, over n - 1).
fn residuals(pairs: &[(f64, f64)], ratio: f64) -> f64 {
    let squares: f64 = pairs.iter().map(|&(x, y)| (y - ratio * x).powi(2)).sum();
    squares / (pairs.len() as f64 - 1.0)
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (a two-sided 95%
/// interval): the table's values to 30, then the Cornish-Fisher expansion about the normal
/// quantile, within 1e-3 there.
pub fn t975(df: u32) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let (z, n) = (1.959_964_f64, f64::from(df));
            z + (z.powi(3) + z) / (4.0 * n)
                + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(instructions: u64, cycles: Option<u64>) -> Unit {
        Unit {
            instructions,
            cycles: cycles.map(|c| c as f64),
            timed: false,
        }
    }

    #[test]
    fn a_warmup_check_gives_the_ratio_of_its_cycles_and_its_variance() {
        // Long over short: 220 / 200 = 1.1; residuals 110 - 1.1 * 100 = 0 twice.
        let (r, v) = check_ratio(&[(100.0, 110.0), (100.0, 110.0)]);
        assert!((r - 1.1).abs() < 1e-12 && v.abs() < 1e-12);
        // Residuals 120 - 110 = 10 and 100 - 110 = -10: s^2 = 200, / (2 * 100^2) = 0.01.
        let (r, v) = check_ratio(&[(100.0, 120.0), (100.0, 100.0)]);
        assert!((r - 1.1).abs() < 1e-12 && (v - 0.01).abs() < 1e-12);
        assert!(check_ratio(&[(100.0, 90.0)]).1.is_nan());
    }

    #[test]
    fn a_stratum_measured_whole_is_exact() {
        let e = stratum("k", &[unit(10, Some(100)), unit(20, Some(150))]);
        assert_eq!(e.stratum.cycles, 250.0);
        assert_eq!(e.stratum.half_width, 0.0);
        assert_eq!(e.degrees_of_freedom, 0);
    }

    #[test]
    fn cycles_scale_with_instructions_by_the_measured_ratio() {
        // Measured: 2 and 3 cycles per instruction, pooled 250 / 100 = 2.5.
        let units = [
            unit(50, Some(100)),
            unit(50, Some(150)),
            unit(100, None),
            unit(200, None),
        ];
        let e = stratum("k", &units);
        assert!((e.stratum.cycles - 2.5 * 400.0).abs() < 1e-9);
        // Residuals -25 and 25: s^2 = 1250; N^2 (1 - n/N) s^2 / n = 16 * 0.5 * 625 = 5000.
        assert!((e.variance - 5000.0).abs() < 1e-9);
        assert_eq!(e.degrees_of_freedom, 1);
        assert!((e.stratum.half_width - 12.706 * 5000f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn one_measured_unit_of_several_has_no_interval() {
        let e = stratum("k", &[unit(10, Some(30)), unit(10, None)]);
        assert_eq!(e.stratum.cycles, 60.0);
        assert!(e.stratum.half_width.is_infinite());
    }

    #[test]
    fn one_measured_unit_of_several_keeps_its_ratio_for_collapsing() {
        let e = stratum("k", &[unit(10, Some(30)), unit(10, None), unit(20, None)]);
        let once = e.once.expect("measured once of several");
        assert_eq!((once.ratio, once.fpc), (3.0, 1.0 - 1.0 / 3.0));
        assert!(stratum("k", &[unit(10, Some(30)), unit(10, Some(20))])
            .once
            .is_none());
        let twice = [unit(10, Some(30)), unit(10, Some(20)), unit(10, None)];
        assert!(stratum("k", &twice).once.is_none());
    }

    #[test]
    fn collapsed_strata_share_their_ratios_relative_spread() {
        // Mean 2; (1/2 - 1)^2 + (3/2 - 1)^2 = 0.5, over one degree of freedom.
        let s = collapse(&[1.0, 3.0]).unwrap();
        assert_eq!((s.variance, s.df), (0.5, 1));
        // Mean 2; 0.25 + 0 + 0.25 over two.
        let s = collapse(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((s.variance, s.df), (0.25, 2));
        assert_eq!(collapse(&[2.0, 2.0]).unwrap().variance, 0.0);
        assert_eq!(collapse(&[2.0]), None);
        assert_eq!(collapse(&[]), None);
    }

    #[test]
    fn a_calibration_is_the_ratio_of_cycles_to_weights_with_its_variance() {
        // 300 / 200 = 1.5; residuals 100 - 75 = 25 and 200 - 225 = -25: S^2 = 1250;
        // (1 - 2/4) 1250 / (2 * 100^2) = 0.03125.
        let c = calibration(&[(50.0, 100.0), (150.0, 200.0)], 4, 100.0);
        assert!((c.ratio - 1.5).abs() < 1e-12, "{c:?}");
        assert!(
            (c.relative_variance - 0.03125 / 2.25).abs() < 1e-12,
            "{c:?}"
        );
        assert_eq!(c.df, 1);
        let all = calibration(&[(50.0, 100.0), (150.0, 200.0)], 2, 100.0);
        assert_eq!((all.relative_variance, all.df), (0.0, 0));
        assert!(calibration(&[(50.0, 100.0)], 3, 50.0)
            .relative_variance
            .is_nan());
    }

    #[test]
    fn the_lone_warps_spread_is_a_predictions() {
        // Mean 100, squares 100 + 0 + 100 = 200, s^2 = 100, times 1 + 1/3.
        let s = lone_warps(&[90.0, 100.0, 110.0]);
        assert!((s.variance - 400.0 / 3.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.df, 2);
        let none = Spread {
            variance: 0.0,
            df: 0,
        };
        assert_eq!(lone_warps(&[90.0]), none);
        assert_eq!(lone_warps(&[]), none);
    }

    #[test]
    fn the_t_quantile_meets_the_normal_one() {
        assert_eq!(t975(1), 12.706);
        assert!((t975(31) - 2.0395).abs() < 1e-3);
        assert!((t975(120) - 1.9799).abs() < 1e-3);
        assert!((t975(100_000) - 1.95996).abs() < 1e-4);
    }
}
