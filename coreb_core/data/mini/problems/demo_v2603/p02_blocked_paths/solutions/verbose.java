import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    private static final long MODULUS = 1_000_000_007L;

    /** Counts right/down routes over free cells, keeping one row of the table at a time. */
    static long countRoutes(char[][] grid, int height, int width) {
        long[] previousRow = new long[width];
        long[] currentRow = new long[width];
        for (int row = 0; row < height; row++) {
            for (int col = 0; col < width; col++) {
                if (grid[row][col] == '#') {
                    currentRow[col] = 0;
                } else if (row == 0 && col == 0) {
                    currentRow[col] = 1;
                } else {
                    long fromAbove = previousRow[col];
                    long fromLeft = col > 0 ? currentRow[col - 1] : 0;
                    currentRow[col] = (fromAbove + fromLeft) % MODULUS;
                }
            }
            long[] swap = previousRow;
            previousRow = currentRow;
            currentRow = swap;
        }
        return previousRow[width - 1];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String[] dimensions = reader.readLine().trim().split("\\s+");
        int height = Integer.parseInt(dimensions[0]);
        int width = Integer.parseInt(dimensions[1]);
        char[][] grid = new char[height][];
        for (int row = 0; row < height; row++) {
            grid[row] = reader.readLine().trim().toCharArray();
        }
        System.out.println(countRoutes(grid, height, width));
    }
}
