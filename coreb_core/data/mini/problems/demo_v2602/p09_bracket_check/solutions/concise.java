import java.io.*;

public class Main {
    public static void main(String[] a) throws IOException {
        String s = new BufferedReader(new InputStreamReader(System.in)).readLine().trim();
        char[] t = new char[s.length()]; int k = 0;
        for (char c : s.toCharArray()) {
            if (c == '(' || c == '[' || c == '{') { t[k++] = c; continue; }
            char o = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (k == 0 || t[--k] != o) { System.out.println("NO"); return; }
        }
        System.out.println(k == 0 ? "YES" : "NO");
    }
}
