import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {

    /** Encodes each maximal run of equal letters as the letter followed by the run length. */
    static String encodeRuns(String message) {
        if (message.length() < 2) {
            return message;
        }
        StringBuilder encoded = new StringBuilder();
        char currentLetter = message.charAt(0);
        int runLength = 1;
        for (int index = 1; index < message.length(); index++) {
            char letter = message.charAt(index);
            if (letter == currentLetter) {
                runLength++;
            } else {
                appendRun(encoded, currentLetter, runLength);
                currentLetter = letter;
                runLength = 1;
            }
        }
        appendRun(encoded, currentLetter, runLength); // flush the final run
        return encoded.toString();
    }

    private static void appendRun(StringBuilder target, char letter, int length) {
        target.append(letter);
        target.append(length);
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String message = reader.readLine().trim();
        System.out.println(encodeRuns(message));
    }
}
