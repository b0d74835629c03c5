//! A continuous power law p(k) ~ k^-gamma truncated to [min, max], with gamma fitted so
//! that the mean is a given value: the degree (or size) law of the Table 4.3 stand-ins.

/// The exponent range searched: below -8 or above 12 the mean no longer moves measurably.
const GAMMA_RANGE: (f64, f64) = (-8.0, 12.0);

#[derive(Clone, Copy, Debug)]
pub(crate) struct TruncatedPowerLaw {
    pub min: f64,
    pub max: f64,
    pub gamma: f64,
}

/// The integral of k^p over [a, b].
fn integral(a: f64, b: f64, p: f64) -> f64 {
    let q = p + 1.0;
    if q.abs() < 1e-9 {
        (b / a).ln()
    } else {
        (b.powf(q) - a.powf(q)) / q
    }
}

impl TruncatedPowerLaw {
    pub fn mean(&self) -> f64 {
        integral(self.min, self.max, 1.0 - self.gamma) / integral(self.min, self.max, -self.gamma)
    }

    /// The law on [min, max] whose mean is `mean` (min < mean < max): the mean falls as
    /// gamma grows, so bisection finds it.
    pub fn fitted(min: f64, max: f64, mean: f64) -> TruncatedPowerLaw {
        let (mut lo, mut hi) = GAMMA_RANGE;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            let law = TruncatedPowerLaw {
                min,
                max,
                gamma: mid,
            };
            if law.mean() > mean {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        TruncatedPowerLaw {
            min,
            max,
            gamma: 0.5 * (lo + hi),
        }
    }

    /// The value below which a fraction `u` (in [0, 1]) of the mass lies.
    pub fn quantile(&self, u: f64) -> f64 {
        let q = 1.0 - self.gamma;
        let (a, b) = (self.min, self.max);
        let k = if q.abs() < 1e-9 {
            a * (b / a).powf(u)
        } else {
            (a.powf(q) + u * (b.powf(q) - a.powf(q))).powf(1.0 / q)
        };
        k.clamp(a, b)
    }

    /// `n` values at evenly spaced quantiles from the top: the first is `max`, the last
    /// `min` (for n >= 2). No randomness: the largest value is the law's maximum itself.
    pub fn ranked(&self, n: usize) -> Vec<f64> {
        if n == 1 {
            return vec![self.mean()];
        }
        (0..n)
            .map(|i| self.quantile(1.0 - i as f64 / (n - 1) as f64))
            .collect()
    }
}
