import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Main {
    /** Reads every whitespace-separated token from standard input. */
    private static List<String> readTokens() throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<String> tokens = new ArrayList<>();
        String line;
        while ((line = reader.readLine()) != null) {
            for (String part : line.trim().split("\\s+")) {
                if (!part.isEmpty()) {
                    tokens.add(part);
                }
            }
        }
        return tokens;
    }

    /** table[i][j] holds the best length for the first i and j characters. */
    private static int longestCommonSubsequence(String first, String second) {
        int rows = first.length();
        int cols = second.length();
        int[][] table = new int[rows + 1][cols + 1];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                if (first.charAt(i - 1) == second.charAt(j - 1)) {
                    table[i][j] = table[i - 1][j - 1] + 1;
                } else {
                    int skipFirst = table[i - 1][j];
                    int skipSecond = table[i][j - 1];
                    table[i][j] = skipFirst > skipSecond ? skipFirst : skipSecond;
                }
            }
        }
        return table[rows][cols];
    }

    public static void main(String[] args) throws IOException {
        List<String> tokens = readTokens();
        System.out.println(longestCommonSubsequence(tokens.get(0), tokens.get(1)));
    }
}
