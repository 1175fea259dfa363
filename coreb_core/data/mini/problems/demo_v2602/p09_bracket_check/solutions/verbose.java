import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

public class Main {
    private static final Map<Character, Character> OPENER_FOR_CLOSER = Map.of(
            ')', '(',
            ']', '[',
            '}', '{');

    /** Checks that brackets close in last-opened-first-closed order and by kind. */
    static boolean isBalanced(String sequence) {
        Deque<Character> pendingOpeners = new ArrayDeque<>();
        for (int i = 0; i < sequence.length(); i++) {
            char symbol = sequence.charAt(i);
            Character expectedOpener = OPENER_FOR_CLOSER.get(symbol);
            if (expectedOpener == null) {
                pendingOpeners.push(symbol);
            } else if (pendingOpeners.isEmpty() || pendingOpeners.pop() != expectedOpener) {
                return false;
            }
        }
        return pendingOpeners.isEmpty();
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String sequence = reader.readLine().trim();
        System.out.println(isBalanced(sequence) ? "YES" : "NO");
    }
}
