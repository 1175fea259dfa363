import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] a) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer(br.readLine());
        int n = Integer.parseInt(st.nextToken()); long k = Long.parseLong(st.nextToken());
        HashMap<Long, Long> c = new HashMap<>(); long r = 0;
        st = new StringTokenizer(br.readLine());
        for (int i = 0; i < n; i++) {
            long x = Long.parseLong(st.nextToken());
            r += c.getOrDefault(k - x, 0L);
            c.merge(x, 1L, Long::sum);
        }
        System.out.println(r);
    }
}
