// JitHot.java - two hot Java methods with a known split of the work
//
// SPDX-License-Identifier: GPL-3.0-or-later

public class JitHot {
    // hotTwice does twice the loop iterations of hotOnce per call.
    static long hotOnce(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) s = (s * 31 + i) % 1000003;
        return s;
    }

    static long hotTwice(long n) {
        long s = 0;
        for (long i = 0; i < 2 * n; i++) s = (s * 37 + i) % 1000003;
        return s;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long r = 0;
        for (int k = 0; k < rounds; k++) {
            r += hotOnce(2000000);
            r += hotTwice(2000000);
        }
        System.out.println(r);
    }
}
