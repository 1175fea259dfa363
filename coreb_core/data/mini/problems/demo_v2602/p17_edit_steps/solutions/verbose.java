import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

public class Main {

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<String> words = new ArrayList<>();
        String line;
        while (words.size() < 2 && (line = reader.readLine()) != null) {
            StringTokenizer tokens = new StringTokenizer(line);
            while (tokens.hasMoreTokens()) {
                words.add(tokens.nextToken());
            }
        }
        System.out.println(editDistance(words.get(0), words.get(1)));
    }

    /**
     * Top-down memoised recursion would be deep, so the table is filled row by row;
     * distance[i][j] is the cheapest way to turn the first i letters of source
     * into the first j letters of target.
     */
    static int editDistance(String source, String target) {
        int sourceLength = source.length();
        int targetLength = target.length();
        int[][] distance = new int[sourceLength + 1][targetLength + 1];

        for (int i = 0; i <= sourceLength; i++) {
            distance[i][0] = i;
        }
        for (int j = 0; j <= targetLength; j++) {
            distance[0][j] = j;
        }
        for (int i = 1; i <= sourceLength; i++) {
            for (int j = 1; j <= targetLength; j++) {
                int replaceCost = source.charAt(i - 1) == target.charAt(j - 1) ? 0 : 1;
                int viaReplace = distance[i - 1][j - 1] + replaceCost;
                int viaDelete = distance[i - 1][j] + 1;
                int viaInsert = distance[i][j - 1] + 1;
                distance[i][j] = Math.min(viaReplace, Math.min(viaDelete, viaInsert));
            }
        }
        return distance[sourceLength][targetLength];
    }
}
