import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.StringTokenizer;

public class Main {
    /** Left-to-right sweep: each index waits on the stack until a strictly greater value arrives. */
    static long[] nextGreaterValues(long[] heights) {
        long[] answer = new long[heights.length];
        java.util.Arrays.fill(answer, -1L);
        Deque<Integer> waiting = new ArrayDeque<>();
        for (int index = 0; index < heights.length; index++) {
            while (!waiting.isEmpty() && heights[waiting.peek()] < heights[index]) {
                answer[waiting.pop()] = heights[index];
            }
            waiting.push(index);
        }
        return answer;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        int count = Integer.parseInt(reader.readLine().trim());
        long[] heights = new long[count];
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        for (int index = 0; index < count; index++) {
            heights[index] = Long.parseLong(tokens.nextToken());
        }
        long[] answer = nextGreaterValues(heights);
        StringBuilder output = new StringBuilder();
        for (int index = 0; index < count; index++) {
            if (index > 0) {
                output.append(' ');
            }
            output.append(answer[index]);
        }
        System.out.println(output);
    }
}
