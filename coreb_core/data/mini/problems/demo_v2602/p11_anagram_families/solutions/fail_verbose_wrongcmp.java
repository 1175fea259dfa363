import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.StringTokenizer;

public class Main {
    /** Canonical form of a word: its letters in alphabetical order. */
    static String familyKey(String word) {
        char[] letters = word.toCharArray();
        Arrays.sort(letters);
        return new String(letters);
    }

    static List<String> readWords(BufferedReader reader) throws IOException {
        int wordCount = Integer.parseInt(reader.readLine().trim());
        List<String> words = new ArrayList<>(wordCount);
        while (words.size() < wordCount) {
            StringTokenizer tokens = new StringTokenizer(reader.readLine());
            while (tokens.hasMoreTokens()) {
                words.add(tokens.nextToken());
            }
        }
        return words;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        List<String> keys = new ArrayList<>();
        for (String word : readWords(reader)) {
            keys.add(familyKey(word));
        }
        // after sorting, each family occupies one contiguous run of equal keys
        Collections.sort(keys);
        int familyCount = 0;
        int largestFamily = 0;
        int runLength = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0 && keys.get(i) == keys.get(i - 1)) {
                runLength++;
            } else {
                familyCount++;
                runLength = 1;
            }
            largestFamily = Math.max(largestFamily, runLength);
        }
        System.out.println(familyCount + " " + largestFamily);
    }
}
