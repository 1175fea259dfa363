import java.io.*;

public class Main {
    public static void main(String[] z) throws IOException {
        String s = new BufferedReader(new InputStreamReader(System.in)).readLine().trim();
        StringBuilder o = new StringBuilder(); int n = s.length();
        for (int i = 0, j; i < n; i = j) {
            for (j = i; j < n && s.charAt(j) == s.charAt(i); j++);
            o.append(s.charAt(i)).append(j - i);
        }
        System.out.println(o);
    }
}
