package dev.simhash.calibrate;

/** The standard normal distribution's lower tail, accurate to a relative error of about 1e-7 far into the tail. */
final class Normal {

    private Normal() {}

    /** P(Z <= z) for a standard normal Z. */
    static double lowerTail(double z) {
        return 0.5 * erfc(-z / Math.sqrt(2));
    }

    /**
     * The complementary error function by the Chebyshev fit of Press et al. (Numerical Recipes, erfcc): fractional
     * error below 1.2e-7 everywhere, so tail probabilities keep their leading digits even around 1e-12.
     */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
            + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
            + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }
}
