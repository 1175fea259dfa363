import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.Arrays;

public class Main {
    private static final int[] ROW_STEP = {1, -1, 0, 0};
    private static final int[] COL_STEP = {0, 0, 1, -1};

    private final char[][] grid;
    private final int height;
    private final int width;

    Main(char[][] grid) {
        this.grid = grid;
        this.height = grid.length;
        this.width = grid[0].length;
    }

    private int[] locate(char symbol) {
        for (int row = 0; row < height; row++) {
            for (int col = 0; col < width; col++) {
                if (grid[row][col] == symbol) {
                    return new int[] {row, col};
                }
            }
        }
        throw new IllegalStateException("missing " + symbol);
    }

    private boolean isWalkable(int row, int col) {
        return row >= 0 && row < height && col >= 0 && col < width && grid[row][col] != '#';
    }

    /** Breadth-first search from the gate; -1 when the exit is never reached. */
    int shortestWalk() {
        int[] start = locate('S');
        int[] goal = locate('E');
        int[][] distance = new int[height][width];
        for (int[] line : distance) {
            Arrays.fill(line, -1);
        }
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        distance[start[0]][start[1]] = 0;
        queue.add(start);
        while (!queue.isEmpty()) {
            int[] current = queue.poll();
            for (int dir = 0; dir < 4; dir++) {
                int nextRow = current[0] + ROW_STEP[dir];
                int nextCol = current[1] + COL_STEP[dir];
                if (isWalkable(nextRow, nextCol) && distance[nextRow][nextCol] == -1) {
                    distance[nextRow][nextCol] = distance[current[0]][current[1]] + 1;
                    queue.add(new int[] {nextRow, nextCol});
                }
            }
        }
        return distance[goal[0]][goal[1]];
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String[] header = reader.readLine().trim().split("\\s+");
        int height = Integer.parseInt(header[0]);
        char[][] grid = new char[height][];
        for (int row = 0; row < height; row++) {
            grid[row] = reader.readLine().trim().toCharArray();
        }
        System.out.println(new Main(grid).shortestWalk());
    }
}
