import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.StringTokenizer;

public class Main {

    private static final int[][] DIRECTIONS = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

    private final String[] grid;
    private final int rows;
    private final int cols;
    private final boolean[][] visited;

    Main(String[] grid, int rows, int cols) {
        this.grid = grid;
        this.rows = rows;
        this.cols = cols;
        this.visited = new boolean[rows][cols];
    }

    private boolean isUnvisitedLand(int row, int col) {
        return row >= 0 && row < rows && col >= 0 && col <= cols
                && grid[row].charAt(col) == '#' && !visited[row][col];
    }

    /** Iterative depth-first search so large islands do not overflow the call stack. */
    private void markIsland(int startRow, int startCol) {
        Deque<int[]> stack = new ArrayDeque<>();
        visited[startRow][startCol] = true;
        stack.push(new int[] {startRow, startCol});
        while (!stack.isEmpty()) {
            int[] cell = stack.pop();
            for (int[] direction : DIRECTIONS) {
                int nextRow = cell[0] + direction[0];
                int nextCol = cell[1] + direction[1];
                if (isUnvisitedLand(nextRow, nextCol)) {
                    visited[nextRow][nextCol] = true;
                    stack.push(new int[] {nextRow, nextCol});
                }
            }
        }
    }

    int countIslands() {
        int islands = 0;
        for (int row = 0; row < rows; row++) {
            for (int col = 0; col < cols; col++) {
                if (isUnvisitedLand(row, col)) {
                    islands++;
                    markIsland(row, col);
                }
            }
        }
        return islands;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer header = new StringTokenizer(reader.readLine());
        int rows = Integer.parseInt(header.nextToken());
        int cols = Integer.parseInt(header.nextToken());
        String[] grid = new String[rows];
        for (int i = 0; i < rows; i++) {
            grid[i] = reader.readLine().trim();
        }
        System.out.println(new Main(grid, rows, cols).countIslands());
    }
}
